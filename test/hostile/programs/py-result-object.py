# about: returns an arbitrary object
# expect: invalid-output
return object()
