// CI's run with the OS sandbox made unavailable, as on macOS, Windows and most containers (issue 26): bubblewrap is
// hidden in a private mount namespace (a bind mount of /dev/null over it), the way a user without it sees the machine.
// `ptc test examples/` must then pick the WebAssembly engines under `auto`, say so once per language, and pass every
// expectation; `--engine wasm` must pass them too. Needs root (unshare, mount); elsewhere it says why and exits 0.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const BWRAP = '/usr/bin/bwrap';
const NOTICE = 'the OS sandbox is not available here';

if (process.getuid?.() !== 0 || !existsSync('/usr/bin/unshare') || !existsSync(BWRAP)) {
  console.log('sandbox-unavailable: skipped (needs root, unshare and an installed bubblewrap to hide)');
  process.exit(0);
}

let failed = false;
for (const extra of [[], ['--engine', 'wasm']]) {
  const command = ['node', 'dist/cli.mjs', 'test', 'examples/', ...extra].join(' ');
  const run = spawnSync(
    'unshare',
    ['--mount', '--propagation', 'private', 'sh', '-c', `mount --bind /dev/null ${BWRAP} && exec ${command}`],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  const output = `${run.stdout}${run.stderr}`;
  process.stdout.write(output);
  const notices = output.split('\n').filter((line) => line.includes(NOTICE));
  const problems = [];
  if (run.status !== 0) problems.push(`exited with ${run.status ?? run.signal}`);
  if (!/\b0 failed\b/.test(output)) problems.push('not every expectation passed');
  // `auto` says once per language why the wasm engines run (the examples hold both); `--engine wasm` chose them
  if (extra.length === 0) {
    for (const language of ['typescript', 'python'])
      if (notices.filter((line) => line.includes(`${language} programs run in`)).length !== 1)
        problems.push(`the sandbox notice for ${language} was not printed exactly once`);
    if (notices.length !== 2) problems.push(`${notices.length} sandbox notices, not one per language`);
  }
  console.log(`sandbox-unavailable: ${command}: ${problems.length === 0 ? 'ok' : problems.join('; ')}`);
  failed ||= problems.length > 0;
}
process.exit(failed ? 1 : 0);
