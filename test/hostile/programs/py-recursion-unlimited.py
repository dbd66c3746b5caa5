# about: lifts the recursion limit and recurses (3.11 frames live on the heap: memory or the deadline ends it)
# expect: worker-exit|exception|timeout
import sys
sys.setrecursionlimit(10 ** 8)
def f(n):
    return f(n + 1) + 1
return f(0)
