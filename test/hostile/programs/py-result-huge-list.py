# about: returns 200 000 dicts (over the 1 MB cap)
# expect: output-limit
return [{'i': i, 's': 'abcdefgh'} for i in range(200_000)]
