# about: sends UDP datagrams to a loopback listener started by the test
# expect: success|exception
# must-not: udp-received
import socket, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
out = []
for _ in range(5):
    try:
        s.sendto(b'hello', ('127.0.0.1', {{UDP_PORT}}))
        out.append('sent')
    except OSError as e:
        out.append(type(e).__name__)
time.sleep(0.1)
return out
