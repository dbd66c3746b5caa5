# about: returns a dict subclass with a hostile items()
# expect: invalid-output
class D(dict):
    def items(self):
        raise RuntimeError('items')
return D(a=1)
