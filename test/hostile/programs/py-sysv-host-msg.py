# about: opens the host's root-only SysV message queue by key and receives the secret message from it
# expect: success|exception
# must-not: secret-leaked
# requires: host-python
import ctypes
class Message(ctypes.Structure):
    _fields_ = [('mtype', ctypes.c_long), ('text', ctypes.c_char * 256)]
libc = ctypes.CDLL(None, use_errno=True)
libc.msgrcv.restype = ctypes.c_ssize_t
qid = libc.msgget({{MSG_KEY}}, 0)
if qid < 0:
    return f'msgget: errno {ctypes.get_errno()}'
msg = Message()
n = libc.msgrcv(qid, ctypes.byref(msg), ctypes.c_size_t(256), ctypes.c_long(0), 0o4000)
if n < 0:
    return f'msgrcv: errno {ctypes.get_errno()}'
return msg.text[:n].decode('latin1')
