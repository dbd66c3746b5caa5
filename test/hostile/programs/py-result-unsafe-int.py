# about: returns 2**53 + 1 (not exactly a double)
# expect: invalid-output
return 2 ** 53 + 1
