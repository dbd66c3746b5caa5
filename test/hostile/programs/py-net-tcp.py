# about: connects to a loopback TCP listener started by the test
# expect: success|exception
# must-not: tcp-received
import socket
try:
    s = socket.create_connection(('127.0.0.1', {{TCP_PORT}}), timeout=1)
    s.close()
    return 'connected'
except OSError as e:
    return type(e).__name__
