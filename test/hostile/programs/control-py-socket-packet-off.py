# about: CONTROL: with the sandbox off, root opens a raw AF_PACKET socket, and the host's kernel witness sees it open
# expect: success
# must: kernel-granted
# requires: root
# options: {"sandbox": "off"}
import socket
await probe.kernelLook()
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x0003))
try:
    await probe.kernelLook()
finally:
    s.close()
return 'AF_PACKET: created ' + '{{TOKEN}}'.upper()
