# about: dict keys that fold to the same JSON key
# expect: invalid-output|success
return {'\ud83d\ude00': 1, '\U0001F600': 2}
