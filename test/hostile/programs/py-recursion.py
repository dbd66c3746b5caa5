# about: unbounded recursion
# expect: exception
# message: RecursionError
def f(n):
    return f(n + 1) + 1
return f(0)
