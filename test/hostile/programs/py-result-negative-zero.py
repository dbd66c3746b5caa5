# about: returns -0.0
# expect: invalid-output
return -0.0
