// about: reads the host process's memory through /proc/<host>/mem and scans it for a secret the host holds
// expect: success|exception
// must-not: secret-leaked
const fs = await import('node:fs');
const out: string[] = [];
const wanted = /PTC-FILE-SECRET-[0-9a-f]{16}/;
try {
  const maps = fs.readFileSync('/proc/{{HOST_PID}}/maps', 'utf8').split('\n');
  const fd = fs.openSync('/proc/{{HOST_PID}}/mem', 'r');
  const slice = Buffer.alloc(16 << 20);
  scan: for (const line of maps) {
    const [range, perms] = line.split(' ');
    if (range === undefined || !perms?.startsWith('rw')) continue;
    const [lo, hi] = range.split('-').map((h) => parseInt(h, 16)) as [number, number];
    for (let at = lo; at < hi && at - lo < 256 << 20; at += slice.length) {
      let n = 0;
      try {
        n = fs.readSync(fd, slice, 0, Math.min(slice.length, hi - at), at);
      } catch {
        continue scan;
      }
      const hit = wanted.exec(slice.toString('latin1', 0, n));
      if (hit !== null) {
        out.push(hit[0]);
        break scan;
      }
    }
  }
  fs.closeSync(fd);
} catch (e) {
  out.push((e as NodeJS.ErrnoException).code ?? String(e));
}
return out;
