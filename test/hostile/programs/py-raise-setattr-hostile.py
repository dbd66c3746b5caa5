# about: an exception whose __setattr__ and __getattribute__ raise
# expect: exception
class E(Exception):
    def __setattr__(self, k, v):
        raise RuntimeError('setattr')
    def __getattribute__(self, k):
        if k.startswith('__'):
            return object.__getattribute__(self, k)
        raise RuntimeError('getattr')
raise E('hostile attrs')
