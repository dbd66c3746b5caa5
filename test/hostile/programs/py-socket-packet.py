# about: socket(AF_PACKET, SOCK_RAW) and SOCK_DGRAM: raw link-layer access, sniffing and spoofing
# expect: success|exception
# must-not: kernel-granted
import socket
out = []
for kind in (socket.SOCK_RAW, socket.SOCK_DGRAM):
    try:
        socket.socket(socket.AF_PACKET, kind, socket.htons(0x0003)).close()
        out.append(f'AF_PACKET {kind}: created ' + '{{TOKEN}}'.upper())
    except OSError as e:
        out.append(f'AF_PACKET {kind}: errno {e.errno}')
return out
