# about: socket(AF_VSOCK), bound and listening: a network namespace does not cover vsock, which talks to the hypervisor and other VMs
# expect: success|exception
# must-not: kernel-granted
import socket
out = []
try:
    s = socket.socket(socket.AF_VSOCK, socket.SOCK_STREAM)
    out.append('AF_VSOCK: created ' + '{{TOKEN}}'.upper())
    try:
        s.bind((socket.VMADDR_CID_ANY, 52999))
        s.listen()
        out.append('AF_VSOCK: listening')
    except OSError as e:
        out.append(f'bind: errno {e.errno}')
    s.close()
except OSError as e:
    out.append(f'AF_VSOCK: errno {e.errno}')
return out
