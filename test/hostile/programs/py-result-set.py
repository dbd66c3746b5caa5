# about: returns a set
# expect: invalid-output
return {1, 2}
