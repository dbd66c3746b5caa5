# about: CONTROL: with the sandbox off, the host process's memory is readable through /proc/<host>/mem (a secret is found in it)
# expect: success
# must: secret-leaked
# requires: root
# options: {"sandbox": "off", "timeoutMs": 60000}
import re
wanted = re.compile(rb'PTC-FILE-SECRET-[0-9a-f]{16}')
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
            return hit.group().decode()
return 'not found'
