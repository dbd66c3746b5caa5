# about: CONTROL: with the sandbox off, socket(AF_VSOCK) succeeds on a kernel that has vsock
# expect: success
# must: kernel-granted
# requires: af-vsock
# options: {"sandbox": "off"}
import socket
socket.socket(socket.AF_VSOCK, socket.SOCK_STREAM).close()
return 'AF_VSOCK: created ' + '{{TOKEN}}'.upper()
