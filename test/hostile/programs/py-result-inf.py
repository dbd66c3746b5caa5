# about: returns [inf]
# expect: invalid-output
return [float('inf')]
