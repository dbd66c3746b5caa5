# about: raises an exception whose __str__ and __repr__ raise
# expect: exception
class E(Exception):
    def __str__(self):
        raise RuntimeError('str')
    def __repr__(self):
        raise RuntimeError('repr')
raise E('x')
