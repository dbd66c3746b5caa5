# about: returns a cyclic list
# expect: invalid-output
a = []
a.append(a)
return a
