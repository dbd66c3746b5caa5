// `npm run demo`: installs and builds when needed, then runs the bundled examples headlessly through the `ptc` CLI.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const run = (cmd, args) => execFileSync(cmd, args, { cwd: root, stdio: 'inherit' });
if (!fs.existsSync(path.join(root, 'node_modules', 'esbuild'))) run('npm', ['ci']);
run(process.execPath, ['scripts/build.mjs']);

const cli = path.join(root, 'dist', 'cli.mjs');
const steps = [];
const tour = path.join(root, 'examples', 'tour.ptcnb');
if (fs.existsSync(tour)) steps.push(['notebook', tour]);
const bindings = path.join(root, 'examples', 'programs', 'tools.bindings.mjs');
steps.push(['run', path.join(root, 'examples', 'programs', 'cities.ts'), '--bindings', bindings]);
steps.push(['run', path.join(root, 'examples', 'programs', 'cities.py'), '--bindings', bindings]);
steps.push(['run', path.join(root, 'examples', 'programs', 'timeout.ts'), '--timeout-ms', '1000']);
let unexpected = 0;
for (const args of steps) {
  process.stdout.write(`\n$ ptc ${args.map((a) => path.relative(root, a) || a).join(' ')}\n`);
  const r = spawnSync(process.execPath, [cli, ...args], { cwd: root, stdio: 'inherit' });
  // the timeout example is meant to fail (exit 1); anything else failing is a real problem
  const expectedFailure = args[1]?.endsWith('timeout.ts') || args[0] === 'notebook';
  if (r.status === 2 || r.status === 3 || (r.status !== 0 && !expectedFailure)) unexpected++;
}
process.exitCode = unexpected === 0 ? 0 : 1;
