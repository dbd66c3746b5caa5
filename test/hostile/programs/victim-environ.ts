// about: reads the environment and command line of another host process (a victim with a secret in its environment)
// expect: success|exception
// must-not: secret-leaked
const fs = await import('node:fs');
const out: string[] = [];
for (const file of ['environ', 'cmdline', 'status']) {
  try {
    out.push(fs.readFileSync('/proc/{{VICTIM_PID}}/' + file, 'latin1'));
  } catch (e) {
    out.push(file + ': ' + ((e as NodeJS.ErrnoException).code ?? String(e)));
  }
}
return out;
