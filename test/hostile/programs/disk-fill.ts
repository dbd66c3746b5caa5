// about: fills its temp dir with 320 MiB (in 16 MiB files): the data must never be on the host disk, and the fill must stop at the temp dir's cap (ENOSPC, EFBIG or SIGXFSZ)
// expect: success|exception|worker-exit
// must-not: data-on-host-disk
const fs = await import('node:fs');
const os = await import('node:os');
const base = os.tmpdir() + '/fill-{{TOKEN}}';
fs.mkdirSync(base);
const chunk = Buffer.alloc(4 << 20, 'x');
let written = 0;
let error: string | undefined;
try {
  for (let i = 0; i < 20; i++) {
    const fd = fs.openSync(base + '/' + i, 'w');
    try {
      for (let j = 0; j < 4; j++) {
        fs.writeSync(fd, chunk);
        written += 4;
      }
    } finally {
      fs.closeSync(fd);
    }
  }
} catch (e) {
  error = (e as NodeJS.ErrnoException).code ?? String(e);
}
return { writtenMiB: written, error: error ?? null, hostSees: await probe.hostLook({}) };
