// about: a directory chain deeper than PATH_MAX in its temp dir (built with relative paths and chdir) with 32 MiB at the bottom: nothing of it may be on the host disk, during the run or after it
// expect: success|exception
// must-not: data-on-host-disk
const fs = await import('node:fs');
const os = await import('node:os');
const top = os.tmpdir() + '/deep-{{TOKEN}}';
const name = 'd'.repeat(250);
let depth = 0;
let error: string | undefined;
const home = process.cwd();
try {
  fs.mkdirSync(top);
  process.chdir(top);
  for (let i = 0; i < 40; i++) {
    fs.mkdirSync(name);
    process.chdir(name);
    depth++;
  }
  fs.writeFileSync('data', Buffer.alloc(32 << 20, 'x'));
} catch (e) {
  error = (e as NodeJS.ErrnoException).code ?? String(e);
} finally {
  try {
    process.chdir(home);
  } catch {
    // stays where it got to
  }
}
return { depth, error: error ?? null, hostSees: await probe.hostLook({}) };
