// about: reaches for the internal spawn binding
// expect: success|exception
// must-not: file-created
const out: string[] = [];
for (const name of ['spawn_sync', 'process_wrap', 'fs']) {
  try {
    (process as unknown as { binding(n: string): unknown }).binding(name);
    out.push(name + ': reached');
  } catch (e) {
    out.push(name + ': ' + (e as NodeJS.ErrnoException).code);
  }
}
const cp = await import('node:child_process');
try { cp.execFileSync('/bin/sh', ['-c', 'touch {{OUTSIDE_DIR}}/spawned']); out.push('spawned'); } catch (e) { out.push('spawn: ' + (e as NodeJS.ErrnoException).code); }
return out;
