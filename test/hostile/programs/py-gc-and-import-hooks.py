# about: breaks the import machinery and the garbage collector
# expect: success|exception
import sys, gc, builtins
sys.meta_path.clear()
sys.path_hooks.clear()
builtins.__import__ = None
gc.disable()
return 'broken imports'
