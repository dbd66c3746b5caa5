# about: breaks builtins, then raises: the failure is still an exception
# expect: exception
# message: raised after builtins broke
import builtins
set_ = setattr
VE = ValueError
for name in ('print', 'len', 'isinstance', 'repr', 'str', 'type', 'Exception', 'BaseException', 'RuntimeError', 'setattr', 'getattr', 'hasattr', 'iter', 'next', 'id', 'open'):
    set_(builtins, name, None)
raise VE('raised after builtins broke')
