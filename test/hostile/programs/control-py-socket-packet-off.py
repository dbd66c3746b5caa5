# about: CONTROL: with the sandbox off, root opens a raw AF_PACKET socket
# expect: success
# must: kernel-granted
# requires: root
# options: {"sandbox": "off"}
import socket
socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x0003)).close()
return 'AF_PACKET: created ' + '{{TOKEN}}'.upper()
