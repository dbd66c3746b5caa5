# about: CONTROL: with the sandbox off, the host's root-only SysV message queue gives up its secret
# expect: success
# must: secret-leaked
# requires: host-python
# options: {"sandbox": "off"}
import ctypes
class Message(ctypes.Structure):
    _fields_ = [('mtype', ctypes.c_long), ('text', ctypes.c_char * 256)]
libc = ctypes.CDLL(None, use_errno=True)
libc.msgrcv.restype = ctypes.c_ssize_t
qid = libc.msgget({{MSG_KEY}}, 0)
msg = Message()
n = libc.msgrcv(qid, ctypes.byref(msg), ctypes.c_size_t(256), ctypes.c_long(0), 0o4000)
return msg.text[:max(n, 0)].decode('latin1')
