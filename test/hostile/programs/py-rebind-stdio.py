# about: replaces sys.stdout/stderr with objects that raise
# expect: success
# value: 1
import sys
class Boom:
    def write(self, s):
        raise RuntimeError('write')
    def flush(self):
        raise RuntimeError('flush')
sys.stdout = sys.stderr = Boom()
sys.__stdout__ = sys.__stderr__ = None
return 1
