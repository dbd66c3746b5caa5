// about: reads the workspace the host runs in (a secret file is planted under it) and lists it
// expect: success|exception
// must-not: secret-leaked
const fs = await import('node:fs');
const out: string[] = [];
try {
  out.push(fs.readFileSync('{{WORKSPACE_SECRET}}', 'utf8'));
} catch (e) {
  out.push('secret: ' + ((e as NodeJS.ErrnoException).code ?? String(e)));
}
for (const dir of ['{{WORKSPACE}}', '{{WORKSPACE}}/.cache']) {
  try {
    out.push(fs.readdirSync(dir).join(','));
  } catch (e) {
    out.push(dir + ': ' + ((e as NodeJS.ErrnoException).code ?? String(e)));
  }
}
return out;
