# about: breaks builtins one by one until its own loop trips over setattr=None (a TypeError raised by the interpreter)
# expect: exception
# message: TypeError
import builtins
for name in ('print', 'len', 'isinstance', 'repr', 'str', 'type', 'Exception', 'BaseException', 'RuntimeError', 'setattr', 'getattr'):
    setattr(builtins, name, None)
return 'unreachable'
