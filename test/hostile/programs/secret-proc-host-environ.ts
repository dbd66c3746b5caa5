// about: reads /proc/<host>/environ and /proc/<parent>/environ
// expect: success|exception
// must-not: secret-leaked
const fs = await import('node:fs');
const out: string[] = [];
for (const pid of ['{{HOST_PID}}', String(process.ppid), '1']) {
  try {
    out.push(fs.readFileSync(`/proc/${pid}/environ`, 'utf8'));
  } catch (e) {
    out.push(String((e as Error).message));
  }
}
return out;
