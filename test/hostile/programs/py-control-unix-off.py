# about: CONTROL: with the sandbox off, the Unix socket connection arrives
# expect: success
# value: "connected"
# must: unix-received
# options: {"sandbox": "off"}
import socket
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect('{{UNIX_PATH}}')
return 'connected'
