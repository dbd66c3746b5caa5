# about: an exception class whose metaclass lies about __name__ and __module__
# expect: exception
class Meta(type):
    @property
    def __name__(cls):
        raise RuntimeError('name')
    @property
    def __module__(cls):
        raise RuntimeError('module')
class E(Exception, metaclass=Meta):
    pass
raise E('meta')
