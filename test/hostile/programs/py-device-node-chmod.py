# about: changes device nodes: chmod/chown/write of a host device node, and a mode-preserving chmod/chown of /dev/null and /dev/zero (any success is a device node the program could change; the host looks at its device nodes' mode, owner and ctime)
# expect: success|exception
# must-not: device-changed, kernel-granted
import os
GRANT = '{{TOKEN}}'.upper()
out = []
await probe.kernelLook()
def attempt(name, fn, granted=False):
    try:
        fn()
        out.append(name + ': done' + (' ' + GRANT if granted else ''))
    except OSError as e:
        out.append(f'{name}: {e.errno}')
attempt('chmod host node', lambda: os.chmod('{{DEVICE_NODE}}', 0o666))
attempt('chown host node', lambda: os.chown('{{DEVICE_NODE}}', 65534, 65534))
attempt('write host node', lambda: open('{{DEVICE_NODE}}', 'w').write('x'))
# the same mode and owner again: refused by a read-only /dev, harmless if it is not
for dev in ('/dev/null', '/dev/zero'):
    try:
        st = os.stat(dev)
    except OSError as e:
        out.append(f'stat {dev}: {e.errno}')
        continue
    attempt('chmod ' + dev, lambda: os.chmod(dev, st.st_mode & 0o7777), True)
    attempt('chown ' + dev, lambda: os.chown(dev, st.st_uid, st.st_gid), True)
await probe.kernelLook()
return out
