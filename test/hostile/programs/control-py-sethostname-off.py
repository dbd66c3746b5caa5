# about: CONTROL: with the sandbox off, root sets the host's hostname (to the value it already has)
# expect: success
# must: kernel-granted
# requires: root
# options: {"sandbox": "off"}
import socket
socket.sethostname(socket.gethostname())
return 'sethostname: done ' + '{{TOKEN}}'.upper()
