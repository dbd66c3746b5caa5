# about: kernel memory no limit counts: socketpairs with SO_SNDBUF/SO_RCVBUF raised, filled until more than 1 GB is queued
# expect: success|exception
# must-not: kernel-granted
# options: {"memoryMb": 512}
import socket
GRANT = '{{TOKEN}}'.upper()
pairs, queued, grown = [], 0, 'grown'
try:
    while len(pairs) < 480 and queued < (1100 << 20):
        a, b = socket.socketpair()
        pairs.append((a, b))
        a.setblocking(False)
        try:
            a.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 1 << 30)
            b.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 30)
        except OSError as e:
            grown = f'not grown (errno {e.errno})'
        while True:
            try:
                queued += a.send(b'x' * 65536)
            except BlockingIOError:
                break
except OSError as e:
    grown += f', stopped: {e}'
return f'{len(pairs)} socketpairs, buffers {grown}, {queued >> 20} MB queued' + (f', {GRANT}' if queued > (1024 << 20) else '')
