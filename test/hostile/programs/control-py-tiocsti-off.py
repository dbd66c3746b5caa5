# about: CONTROL: with the sandbox off, TIOCSTI pushes the token into a host pty's input queue (root may inject into any tty)
# expect: success
# must: tty-injected
# requires: root, host-python
# options: {"sandbox": "off"}
import fcntl, os, termios
fd = os.open('{{PTY_PATH}}', os.O_RDWR | os.O_NOCTTY)
for byte in b'{{TOKEN}}':
    fcntl.ioctl(fd, termios.TIOCSTI, bytes([byte]))
os.close(fd)
return 'injected'
