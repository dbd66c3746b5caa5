// about: opens /proc/self/fd entries inherited from the host
// expect: success|exception
// must-not: secret-leaked
const fs = await import('node:fs');
const out: string[] = [];
for (let fd = 0; fd < 64; fd++) {
  try { out.push(fs.readlinkSync(`/proc/self/fd/${fd}`)); } catch { /* closed or denied */ }
}
return out;
