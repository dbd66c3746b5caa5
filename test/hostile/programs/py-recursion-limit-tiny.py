# about: sets the recursion limit to almost nothing before returning a nested value
# expect: success|exception|invalid-output
import sys
v = [[[[[['deep']]]]]]
sys.setrecursionlimit(25)
return v
