# about: sethostname and setdomainname, to the values they already have (so even a success changes nothing): the host's UTS names must be out of reach
# expect: success|exception
# must-not: kernel-granted
import ctypes, socket
libc = ctypes.CDLL(None, use_errno=True)
out = []
try:
    socket.sethostname(socket.gethostname())
    out.append('sethostname: done ' + '{{TOKEN}}'.upper())
except OSError as e:
    out.append(f'sethostname: errno {e.errno}')
try:
    domain = open('/proc/sys/kernel/domainname', 'rb').read().strip()
    if libc.setdomainname(domain, len(domain)) == 0:
        out.append('setdomainname: done ' + '{{TOKEN}}'.upper())
    else:
        out.append(f'setdomainname: errno {ctypes.get_errno()}')
except OSError as e:
    out.append(f'domainname: errno {e.errno}')
return out
