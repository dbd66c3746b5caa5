# about: returns a tuple
# expect: invalid-output
return (1, 2)
