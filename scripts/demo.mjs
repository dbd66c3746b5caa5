// `npm run demo`: on a fresh clone, installs and builds when needed, then runs the bundled example notebooks headlessly
// through `ptc notebook` (the extension's own code path) and prints every cell's result; last, it imports an agent
// transcript (examples/transcripts/) into a notebook and replays it offline, checked against what the transcript
// recorded, and compares two scripted models in code and direct mode with `ptc eval` against a local fake model server.
// The tour fails some cells on purpose (one per failure kind); the demo fails only when something else goes wrong:
// a usage or internal error, a hang, or a cell ending differently from what the tour promises.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'dist', 'cli.mjs');
// a notebook that has not exited by then is reported as hanging, and its process group is stopped
const WATCHDOG_MS = 3 * 60_000;

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 12)) {
  process.stderr.write(`demo: Node.js >= 20.12 is required (this is ${process.version})\n`);
  process.exit(1);
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
// node_modules/.package-lock.json is written by every complete npm install
if (!fs.existsSync(path.join(root, 'node_modules', '.package-lock.json'))) {
  process.stdout.write('demo: installing dependencies (npm ci)…\n');
  execFileSync(npm, ['ci', '--no-audit', '--no-fund'], {
    cwd: root,
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
}
process.stdout.write('demo: building…\n');
execFileSync(process.execPath, [path.join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });

// What each example promises per cell id: 'ok', or the failure kind it demonstrates (shared with the tests).
const expected = JSON.parse(fs.readFileSync(path.join(root, 'examples', 'expected-outcomes.json'), 'utf8'));
const EXAMPLES = ['tour.ptcnb', 'mcp/weather.ptcnb'].map((name) => ({
  notebook: path.join(root, 'examples', name),
  expect: expected[name],
}));

// Runs `ptc notebook <file> --json` in its own process group; resolves { status, stdout, stderr, hung }.
function runNotebook(file) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, 'notebook', file, '--json'], {
      cwd: path.dirname(file),
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let hung = false;
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => {
      stderr += d;
      process.stderr.write(d);
    });
    const timer = setTimeout(() => {
      hung = true;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }, WATCHDOG_MS);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr, hung });
    });
  });
}

const indent = (text, pad = '    ') =>
  text
    .replace(/\n$/, '')
    .split('\n')
    .map((l) => pad + l)
    .join('\n');

// The line that names the error: a Python traceback ends with it, everything else starts with it.
function headline(message) {
  const lines = message.split('\n').filter((l) => l.trim() !== '');
  return (message.startsWith('Traceback') ? lines.at(-1) : lines[0])?.trim() ?? '';
}

function summarizeValue(value) {
  const text = JSON.stringify(value, null, 2) ?? 'undefined';
  const lines = text.split('\n');
  return lines.length > 16 ? `${lines.slice(0, 16).join('\n')}\n… (${lines.length - 16} more lines)` : text;
}

// Prints one cell the way a reader wants it: what it printed, what it returned or how it failed, its calls.
function printCell(cell, programs) {
  const program = programs.get(cell.index);
  const id = cell.cellId ?? `cell ${cell.index + 1}`;
  process.stdout.write(`\n── ${id} · ${cell.language} · ${cell.plan} ──\n`);
  if (program) process.stdout.write(`${indent(program, '  │ ')}\n`);
  if (cell.setupError) {
    process.stdout.write(`  could not run (${cell.setupError.stage}): ${cell.setupError.message}\n`);
    return;
  }
  const r = cell.result;
  if (r.logs.length > 0) {
    const shown = r.logs.slice(0, 12);
    process.stdout.write(
      `  printed:\n${indent(shown.join('\n'))}\n${r.logs.length > shown.length ? `    … (${r.logs.length - shown.length} more lines)\n` : ''}`,
    );
  }
  if (r.error) {
    process.stdout.write(
      `  ✗ ${r.error.kind}${r.error.location ? ` at line ${r.error.location.line}` : ''}: ${headline(r.error.message)}\n`,
    );
  } else {
    process.stdout.write(`  ✓ returned:\n${indent(summarizeValue(r.value))}\n`);
  }
  if (r.calls.length > 0) {
    const calls = r.calls.map((c) => `${c.global}.${c.name}${c.ok ? '' : ' ✗'}${c.replayed ? ' (replayed)' : ''}`);
    process.stdout.write(`  ${r.calls.length} binding call(s): ${calls.join(', ')}\n`);
  }
  if (cell.cassette)
    process.stdout.write(
      `  cassette: ${cell.cassette.ok ? `recorded ${cell.cassette.calls} call(s)` : cell.cassette.message}\n`,
    );
  process.stdout.write(
    `  ${Math.round(r.durationMs)} ms, sandbox ${r.sandbox.enforcement}${r.mode ? `, ${r.mode}` : ''}\n`,
  );
}

// The tour's record cell writes a cassette (ignored by git); the demo still puts every cassette folder back as it found
// it, so running it leaves the checkout exactly as it was.
const cassetteDirs = [
  ...new Set(
    EXAMPLES.map((e) => path.join(path.dirname(e.notebook), '.ptc', 'cassettes', path.basename(e.notebook, '.ptcnb'))),
  ),
];
const savedCassettes = new Map(
  cassetteDirs.flatMap((dir) =>
    fs.existsSync(dir)
      ? fs.readdirSync(dir).map((name) => [path.join(dir, name), fs.readFileSync(path.join(dir, name))])
      : [],
  ),
);
const absentDirs = cassetteDirs.filter((dir) => !fs.existsSync(dir));
function restoreCassettes() {
  for (const dir of absentDirs) fs.rmSync(dir, { recursive: true, force: true });
  for (const dir of cassetteDirs) {
    if (!fs.existsSync(dir)) continue;
    for (const name of fs.readdirSync(dir))
      if (!savedCassettes.has(path.join(dir, name))) fs.rmSync(path.join(dir, name), { force: true });
  }
  for (const [file, bytes] of savedCassettes) fs.writeFileSync(file, bytes);
}
process.on('exit', restoreCassettes);

let problems = 0;
for (const example of EXAMPLES) {
  const relative = path.relative(root, example.notebook);
  process.stdout.write(`\n━━━━ ptc notebook ${relative} ━━━━\n`);
  const started = Date.now();
  const run = await runNotebook(example.notebook);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (run.hung) {
    process.stdout.write(`demo: ✗ ${relative} did not exit within ${WATCHDOG_MS / 1000} s\n`);
    problems++;
  }
  let report;
  try {
    report = JSON.parse(run.stdout);
  } catch {
    process.stdout.write(
      `demo: ✗ ptc notebook ${relative} exited ${run.status} without a JSON report\n${run.stdout.slice(0, 2000)}\n`,
    );
    problems++;
    continue;
  }
  const notebook = JSON.parse(fs.readFileSync(example.notebook, 'utf8'));
  const programs = new Map(notebook.cells.map((c, i) => [i, c.kind === 'code' ? c.source : undefined]));
  const seen = new Set();
  for (const cell of report.cells) {
    printCell(cell, programs);
    const want = example.expect[cell.cellId];
    if (want === undefined) continue;
    seen.add(cell.cellId);
    const got = cell.setupError ? `setup error (${cell.setupError.stage})` : (cell.result.error?.kind ?? 'ok');
    if (got !== want) {
      process.stdout.write(`  demo: ✗ expected ${want === 'ok' ? 'success' : `a ${want} failure`}, got ${got}\n`);
      problems++;
    }
  }
  for (const id of Object.keys(example.expect)) {
    if (!seen.has(id)) {
      process.stdout.write(`demo: ✗ ${relative}: cell ${id} did not run\n`);
      problems++;
    }
  }
  const failedOnPurpose = Object.values(example.expect).filter((k) => k !== 'ok').length;
  process.stdout.write(
    `\n${relative}: ${report.cells.length} code cells in ${seconds} s; ${failedOnPurpose} fail on purpose\n`,
  );
}
// A real agent run brought in: a streamed reply as captured (server-sent events, from a public SDK test suite; see
// examples/transcripts/SOURCES.md) is reassembled into a notebook (one cell and cassette per program) in a scratch
// folder, `--verify` replays it and compares each cell with the transcript, and `ptc notebook` replays it again.
const importDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-demo-import-'));
try {
  const transcript = path.join('examples', 'transcripts', 'anthropic-code-execution-stream.sse');
  const notebookPath = path.join(importDir, 'anthropic-code-execution-stream.ptcnb');
  process.stdout.write(`\n━━━━ ptc import ${transcript} --verify ━━━━\n`);
  const imported = spawnSync(
    process.execPath,
    [cli, 'import', path.join(root, transcript), '--output', notebookPath, '--verify'],
    {
      cwd: importDir,
      encoding: 'utf8',
      timeout: WATCHDOG_MS,
    },
  );
  process.stdout.write(imported.stdout ?? '');
  process.stderr.write(imported.stderr ?? '');
  if (imported.status !== 0) {
    process.stdout.write(`demo: ✗ ptc import exited ${imported.status}\n`);
    problems++;
  } else {
    process.stdout.write(`\n━━━━ ptc notebook (the imported notebook, replayed from its cassettes) ━━━━\n`);
    const run = await runNotebook(notebookPath);
    const notebook = JSON.parse(fs.readFileSync(notebookPath, 'utf8'));
    const programs = new Map(notebook.cells.map((c, i) => [i, c.kind === 'code' ? c.source : undefined]));
    try {
      const report = JSON.parse(run.stdout);
      for (const cell of report.cells) {
        printCell(cell, programs);
        if (cell.setupError || cell.result.error || cell.result.replay?.diverged.length > 0) {
          process.stdout.write('  demo: ✗ the imported cell did not replay cleanly\n');
          problems++;
        }
      }
    } catch {
      process.stdout.write(`demo: ✗ ptc notebook exited ${run.status} without a JSON report\n`);
      problems++;
    }
  }
} finally {
  fs.rmSync(importDir, { recursive: true, force: true });
}

problems += await runEvalDemo();
process.stdout.write(
  problems === 0
    ? '\ndemo: every cell ended the way the examples say it should\n'
    : `\ndemo: ${problems} problem(s) above\n`,
);
process.exitCode = problems === 0 ? 0 : 1;

// `ptc eval` offline: the fake model server (examples/models) plays two models over both APIs, tools come from
// the example cassettes, so only the model and the mode change. Returns the number of problems.
async function runEvalDemo() {
  const { startFakeModelServer } = await import('../examples/models/fake-model-server.mjs');
  const models = path.join(root, 'examples', 'models');
  const script = JSON.parse(fs.readFileSync(path.join(models, 'fake-model.json'), 'utf8'));
  const server = await startFakeModelServer({ script });
  const args = [
    cli,
    'eval',
    path.join(models, 'tasks.jsonl'),
    '--bindings',
    path.join(root, 'examples', 'programs', 'tools.bindings.mjs'),
    '--replay',
    path.join(models, 'cassettes'),
    '--models',
    `openai:fake-coder@${server.url}/v1,anthropic:fake-hasty@${server.url}`,
  ];
  process.stdout.write(`\n━━━━ ptc eval examples/models/tasks.jsonl (fake model server at ${server.url}) ━━━━\n`);
  try {
    const status = await new Promise((resolve) => {
      // ptc eval refuses to start without a key; the local fake server takes any (a real key never goes to it)
      const env = { ...process.env, PTC_OPENAI_API_KEY: 'demo-fake-server', PTC_ANTHROPIC_API_KEY: 'demo-fake-server' };
      const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'] });
      child.on('close', resolve);
    });
    if (status !== 0) {
      process.stdout.write(`demo: ✗ ptc eval exited ${status}\n`);
      return 1;
    }
    return 0;
  } finally {
    await server.close();
  }
}
