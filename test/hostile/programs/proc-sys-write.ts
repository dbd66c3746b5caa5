// about: writes kernel settings through /proc/sys (kernel.core_pattern and kernel.hostname, each set to the value it has, so even a success changes nothing)
// expect: success|exception
// must-not: kernel-granted
const fs = await import('node:fs');
const out: string[] = [];
for (const file of ['/proc/sys/kernel/core_pattern', '/proc/sys/kernel/hostname']) {
  try {
    fs.writeFileSync(file, fs.readFileSync(file));
    out.push(file + ': written ' + '{{TOKEN}}'.toUpperCase());
  } catch (e) {
    out.push(file + ': ' + ((e as NodeJS.ErrnoException).code ?? String(e)));
  }
}
return out;
