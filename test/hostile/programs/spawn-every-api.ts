// about: every child_process entry point (spawn, spawnSync, execFile, execFileSync, fork) with Node itself, no shell, printing a token only a new process could print
// expect: success|exception
// must-not: kernel-granted
const cp = await import('node:child_process');
const code = "process.stdout.write('{{TOKEN}}'.toUpperCase())";
const out: string[] = [];
const attempt = async (name: string, fn: () => unknown): Promise<void> => {
  try {
    out.push(name + ': ' + String(await fn()));
  } catch (e) {
    out.push(name + ': ' + ((e as NodeJS.ErrnoException).code ?? String(e).slice(0, 100)));
  }
};
await attempt('spawnSync', () => cp.spawnSync(process.execPath, ['-e', code]).stdout);
await attempt('execFileSync', () => cp.execFileSync(process.execPath, ['-e', code]));
await attempt('execFile', () => new Promise((resolve, reject) => cp.execFile(process.execPath, ['-e', code], (e, stdout) => (e ? reject(e) : resolve(stdout)))));
await attempt('spawn', () => new Promise((resolve, reject) => {
  const child = cp.spawn(process.execPath, ['-e', code]);
  let text = '';
  child.stdout?.on('data', (d) => (text += d));
  child.on('error', reject);
  child.on('close', () => resolve(text));
}));
await attempt('fork', () => new Promise((resolve, reject) => {
  const child = cp.fork('-e', [], { execArgv: ['-e', code], stdio: ['ignore', 'pipe', 'ignore', 'ipc'] });
  let text = '';
  child.stdout?.on('data', (d) => (text += d));
  child.on('error', reject);
  child.on('close', () => resolve(text));
}));
return out;
