# about: connects to a Unix socket the test listens on
# expect: success|exception
# must-not: unix-received
import socket
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
try:
    s.connect('{{UNIX_PATH}}')
    return 'connected'
except OSError as e:
    return type(e).__name__
