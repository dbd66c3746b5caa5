# about: reads the host process's memory through /proc/<host>/mem and scans it for a secret the host holds
# expect: success|exception
# must-not: secret-leaked
import re
wanted = re.compile(rb'PTC-FILE-SECRET-[0-9a-f]{16}')
out = []
try:
    maps = open('/proc/{{HOST_PID}}/maps').read().splitlines()
    with open('/proc/{{HOST_PID}}/mem', 'rb', buffering=0) as mem:
        for line in maps:
            rng, perms = line.split()[:2]
            if not perms.startswith('rw'):
                continue
            lo, hi = (int(x, 16) for x in rng.split('-'))
            try:
                mem.seek(lo)
                chunk = mem.read(min(hi - lo, 256 << 20))
            except OSError:
                continue
            hit = wanted.search(chunk)
            if hit:
                out.append(hit.group().decode())
                break
except OSError as e:
    out.append(f'{e.errno}: {e.strerror}')
return out
