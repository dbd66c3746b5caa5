# about: socket(AF_PACKET, SOCK_RAW) and SOCK_DGRAM: raw link-layer access, sniffing and spoofing (the host looks at the run's sockets before and while each is open)
# expect: success|exception
# must-not: kernel-granted
import socket
out = []
await probe.kernelLook()
for kind in (socket.SOCK_RAW, socket.SOCK_DGRAM):
    try:
        s = socket.socket(socket.AF_PACKET, kind, socket.htons(0x0003))
    except OSError as e:
        out.append(f'AF_PACKET {kind}: errno {e.errno}')
        continue
    try:
        await probe.kernelLook()
    finally:
        s.close()
    out.append(f'AF_PACKET {kind}: created ' + '{{TOKEN}}'.upper())
return out
