# about: CONTROL: with the sandbox off, the loopback TCP connection arrives
# expect: success
# value: "connected"
# must: tcp-received
# options: {"sandbox": "off"}
import socket
s = socket.create_connection(('127.0.0.1', {{TCP_PORT}}), timeout=2)
s.close()
return 'connected'
