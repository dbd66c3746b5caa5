# about: os.nice(-5) and setpriority(PRIO_PROCESS, 0, -20): raising its own priority must be refused
# expect: success|exception
# must-not: kernel-granted
import os
GRANT = '{{TOKEN}}'.upper()
out = []
for name, attempt in (('nice', lambda: os.nice(-5)), ('setpriority', lambda: os.setpriority(os.PRIO_PROCESS, 0, -20))):
    try:
        attempt()
        now = os.getpriority(os.PRIO_PROCESS, 0)
        out.append(f'{name}: now {now}')
        if now < 0:
            out.append('raised ' + GRANT)
    except OSError as e:
        out.append(f'{name}: {e.errno}')
return out
