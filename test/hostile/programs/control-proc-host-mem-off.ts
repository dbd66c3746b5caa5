// about: CONTROL: with the sandbox off, the host process's memory is readable through /proc/<host>/mem (a secret is found in it)
// expect: success
// must: secret-leaked
// requires: root
// options: {"sandbox": "off", "timeoutMs": 60000}
const fs = await import('node:fs');
const wanted = /PTC-FILE-SECRET-[0-9a-f]{16}/;
const maps = fs.readFileSync('/proc/{{HOST_PID}}/maps', 'utf8').split('\n');
const fd = fs.openSync('/proc/{{HOST_PID}}/mem', 'r');
const slice = Buffer.alloc(16 << 20);
for (const line of maps) {
  const [range, perms] = line.split(' ');
  if (range === undefined || !perms?.startsWith('rw')) continue;
  const [lo, hi] = range.split('-').map((h) => parseInt(h, 16)) as [number, number];
  for (let at = lo; at < hi && at - lo < 256 << 20; at += slice.length) {
    let n = 0;
    try {
      n = fs.readSync(fd, slice, 0, Math.min(slice.length, hi - at), at);
    } catch {
      break;
    }
    const hit = wanted.exec(slice.toString('latin1', 0, n));
    if (hit !== null) return hit[0];
  }
}
return 'not found';
