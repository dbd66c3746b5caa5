# about: what its own process still holds: effective or bounding capabilities, no_new_privs unset, no seccomp filter, a no-op setgroups (CAP_SETGID), chown of its own file (CAP_CHOWN)
# expect: success|exception
# must-not: kernel-granted
import os, tempfile
GRANT = '{{TOKEN}}'.upper()
out = []
# an owner other than its own: giving a file to oneself needs no capability
other = 65533 if os.getuid() == 65534 else 65534
try:
    status = dict(line.split(':\t', 1) for line in open('/proc/self/status').read().splitlines() if ':\t' in line)
    for name, bad in (('CapEff', lambda v: int(v, 16) != 0), ('CapBnd', lambda v: int(v, 16) != 0), ('NoNewPrivs', lambda v: v == '0'), ('Seccomp', lambda v: v == '0')):
        value = status.get(name, '?').strip()
        out.append(f'{name} {value}' + (' ' + GRANT if value != '?' and bad(value) else ''))
except OSError as e:
    out.append(f'status: errno {e.errno}')
for name, attempt in (('setgroups', lambda: os.setgroups(os.getgroups())), ('chown', lambda: os.chown(tempfile.mkstemp()[1], other, other))):
    try:
        attempt()
        out.append(f'{name}: done ' + GRANT)
    except OSError as e:
        out.append(f'{name}: errno {e.errno}')
return out
