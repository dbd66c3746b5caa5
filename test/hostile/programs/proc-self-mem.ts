// about: opens /proc/self/mem for writing: with it a program could patch its own runtime and switch Node's permission model off
// expect: success|exception
// must-not: kernel-granted
const fs = await import('node:fs');
try {
  fs.closeSync(fs.openSync('/proc/self/mem', 'r+'));
  return 'opened for writing ' + '{{TOKEN}}'.toUpperCase();
} catch (e) {
  return (e as NodeJS.ErrnoException).code ?? String(e);
}
