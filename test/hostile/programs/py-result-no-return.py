# about: no return statement is null
# expect: success
# value: null
x = 1
