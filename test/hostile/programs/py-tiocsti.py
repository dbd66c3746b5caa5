# about: terminal injection: TIOCSTI into a host pty's input queue and escape sequences (OSC 52 clipboard, title) written to it, then TIOCSTI on its own descriptors and /dev/tty
# expect: success|exception
# must-not: tty-injected, kernel-granted
# requires: host-python
import fcntl, os, termios
out = []
try:
    fd = os.open('{{PTY_PATH}}', os.O_RDWR | os.O_NOCTTY)
    for byte in b'{{TOKEN}}':
        fcntl.ioctl(fd, termios.TIOCSTI, bytes([byte]))
    os.write(fd, b'\x1b]52;c;{{TOKEN}}\x07\x1b]0;{{TOKEN}}\x07')
    os.close(fd)
    out.append('pty: injected')
except OSError as e:
    out.append(f'pty: errno {e.errno}')
for name in ('0', '1', '2', '/dev/tty'):
    try:
        fd = int(name) if name.isdigit() else os.open(name, os.O_RDWR | os.O_NOCTTY)
        fcntl.ioctl(fd, termios.TIOCSTI, b' ')
        out.append(f'{name}: injected ' + '{{TOKEN}}'.upper())
    except OSError as e:
        out.append(f'{name}: errno {e.errno}')
return out
