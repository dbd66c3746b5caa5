# about: socket(AF_NETLINK) for route, audit, uevents and generic netlink: the kernel's configuration interfaces
# expect: success|exception
# must-not: kernel-granted
import socket
out = []
for name, proto in (('ROUTE', 0), ('AUDIT', 9), ('KOBJECT_UEVENT', 15), ('GENERIC', 16)):
    try:
        socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, proto).close()
        out.append(f'NETLINK_{name}: created ' + '{{TOKEN}}'.upper())
    except OSError as e:
        out.append(f'NETLINK_{name}: errno {e.errno}')
return out
