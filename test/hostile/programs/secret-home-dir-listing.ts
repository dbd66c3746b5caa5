// about: lists the home directory and ~/.ssh
// expect: success|exception
// must-not: secret-leaked
const fs = await import('node:fs');
const os = await import('node:os');
const out: unknown[] = [];
for (const dir of [os.homedir(), os.homedir() + '/.ssh', '/root', '/etc']) {
  try {
    out.push(fs.readdirSync(dir));
  } catch (e) {
    out.push(String((e as Error).message));
  }
}
return out;
