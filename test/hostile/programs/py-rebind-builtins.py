# about: rebinds print, len, isinstance, type, str, repr and Exception in builtins
# expect: success
# value: 3
import builtins
sum_ = await tools.add({'a': 1, 'b': 2})
set_ = setattr
for name in ('print', 'len', 'isinstance', 'repr', 'str', 'type', 'Exception', 'BaseException', 'RuntimeError', 'setattr', 'getattr', 'hasattr', 'iter', 'next', 'id', 'open'):
    set_(builtins, name, None)
return sum_
