import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { serializeNotebook } from '../../../runtime/index.js';
import { RunResultSchema, type RunResult } from '../../../runtime/protocol/run-result.js';
import { eventually, settleTo } from '../../helpers/eventually.js';
import { CLI } from '../cli/cli-harness.js';

// Real `ptc` processes against bindings modules whose handlers misbehave in every way a user's can. Each command
// runs in its own folder, so the processes it leaves behind (if any) can be found by their working directory.

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-host-cli-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const SERVER = path.resolve('test/fixtures/mcp/server.mjs');

// Handlers that loop, exit, throw from a timer, never settle, or sleep long; `aborted`/`finished` leave a marker
// file in the command's folder so a test can tell what a handler did after the run settled.
const MODULE = `import fs from 'node:fs';
export default { tools: { errorClass: { name: 'ToolCallError', memberNameProperty: 'toolName' }, functions: {
  spin: async () => { while (true) {} },
  spinMarked: async () => { fs.writeFileSync('spinning', 'yes'); while (true) {} },
  exit: async () => process.exit(7),
  asyncThrow: async () => { setTimeout(() => { throw new Error('thrown from a timer'); }, 10); return new Promise(() => {}); },
  never: (_args, { signal }) => new Promise(() => { signal.addEventListener('abort', () => fs.writeFileSync('aborted', 'yes')); }),
  slow: (_args, { signal }) => new Promise((resolve) => {
    signal.addEventListener('abort', () => fs.writeFileSync('aborted', 'yes'));
    setTimeout(() => { fs.writeFileSync('finished', 'yes'); resolve('late'); }, 20_000);
  }),
  ok: async () => 'ok',
} } };
`;

let counter = 0;
function workspace(files: Record<string, string> = {}): string {
  const dir = path.join(root, `case-${++counter}`);
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, 'tools.bindings.mjs'), MODULE);
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return dir;
}

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

function ptc(cwd: string, args: string[]): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { cwd, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout, stderr });
      },
    );
  });
}

async function run(cwd: string, program: string, ...flags: string[]): Promise<{ outcome: Outcome; result: RunResult }> {
  fs.writeFileSync(path.join(cwd, 'program.ts'), program);
  const outcome = await ptc(cwd, ['run', 'program.ts', '--bindings', 'tools.bindings.mjs', '--json', ...flags]);
  const result = RunResultSchema.parse(JSON.parse(outcome.stdout));
  return { outcome, result };
}

// Live processes whose working directory is `dir` (a bindings host, its MCP servers, a program child).
function processesIn(dir: string): string[] {
  return fs.readdirSync('/proc').filter((pid) => {
    if (!/^\d+$/.test(pid)) return false;
    try {
      return fs.readlinkSync(`/proc/${pid}/cwd`) === dir;
    } catch {
      return false;
    }
  });
}

describe('ptc run: bindings that misbehave fail their own call, never the command', () => {
  test('a handler in a synchronous loop: that call fails as "stopped responding", later calls fail, the command ends', async () => {
    const dir = workspace();
    const { outcome, result } = await run(
      dir,
      `const first = await tools.spin().catch((e) => [e.name, e.message]);
const later = await tools.ok().catch((e) => e.message);
return { first, later };`,
      '--timeout-ms',
      '60000',
    );
    expect(outcome.code).toBe(0);
    expect(result.value).toEqual({
      first: ['ToolCallError', 'bindings host stopped responding while tools.spin was running'],
      later: 'bindings host stopped responding',
    });
    expect(result.calls.map((c) => [c.name, c.ok, c.message])).toEqual([
      ['spin', false, 'bindings host stopped responding while tools.spin was running'],
      ['ok', false, 'bindings host stopped responding'],
    ]);
    expect(await settleTo(() => processesIn(dir)), 'processes still running in the workspace after ptc exited').toEqual(
      [],
    );
  });

  test('a looping handler does not hold the run past its own deadline', async () => {
    const dir = workspace();
    const { outcome, result } = await run(dir, 'return await tools.spin();', '--timeout-ms', '1000');
    expect(outcome.code).toBe(1);
    expect(result.error?.kind).toBe('timeout');
    expect(result.calls.map((c) => c.name)).toEqual(['spin']);
    expect(await settleTo(() => processesIn(dir)), 'processes still running in the workspace after ptc exited').toEqual(
      [],
    );
  });

  test('process.exit() in a handler fails that call naming the exit code; the next run gets a new host', async () => {
    const dir = workspace();
    const { result } = await run(dir, 'return await tools.exit().catch((e) => e.message);');
    expect(result.value).toBe('bindings host exited with code 7 while tools.exit was running');
    const next = await run(dir, 'return await tools.ok();');
    expect(next.result.value).toBe('ok');
  });

  test('a throw from a timer in a handler fails that call; the error reaches stderr labelled as the bindings', async () => {
    const dir = workspace();
    const { outcome, result } = await run(dir, 'return await tools.asyncThrow().catch((e) => e.message);');
    expect(result.value).toBe('bindings host exited with code 1 while tools.asyncThrow was running');
    expect(outcome.stderr).toMatch(/^\[bindings tools\.bindings\.mjs\] Error: thrown from a timer$/m);
    // the stack points at the module's own file, not a bundle
    expect(outcome.stderr).toContain(path.join(dir, 'tools.bindings.mjs'));
  });

  test('a handler that never settles: the run ends at its deadline and the handler gets its abort signal', async () => {
    const dir = workspace();
    const { result } = await run(dir, 'return await tools.never();', '--timeout-ms', '1000');
    expect(result.error?.kind).toBe('timeout');
    // the call was made and never answered
    expect(result.calls.map((c) => [c.name, c.ok, c.message])).toEqual([['never', false, undefined]]);
    expect(fs.readFileSync(path.join(dir, 'aborted'), 'utf8')).toBe('yes');
    expect(await settleTo(() => processesIn(dir)), 'processes still running in the workspace after ptc exited').toEqual(
      [],
    );
  });

  test('a handler still running when the run settles does not keep ptc alive: it is aborted and its host stopped', async () => {
    const dir = workspace();
    const { result } = await run(dir, 'tools.slow().catch(() => undefined);\nreturn 1;', '--timeout-ms', '30000');
    expect(result.value).toBe(1);
    // ptc exited before the handler's 20 s were up: it was told to stop and never finished
    expect(fs.readFileSync(path.join(dir, 'aborted'), 'utf8')).toBe('yes');
    expect(fs.existsSync(path.join(dir, 'finished'))).toBe(false);
    expect(await settleTo(() => processesIn(dir)), 'processes still running in the workspace after ptc exited').toEqual(
      [],
    );
  });

  test('SIGTERM while a handler loops ends ptc with the abort result and leaves no process behind', async () => {
    const dir = workspace({ 'program.ts': 'return await tools.spinMarked();' });
    const child = spawn(
      process.execPath,
      [CLI, 'run', 'program.ts', '--bindings', 'tools.bindings.mjs', '--json', '--timeout-ms', '60000'],
      { cwd: dir },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    // the handler marks the moment it starts looping
    await eventually('the handler to start looping', () => fs.existsSync(path.join(dir, 'spinning')));
    child.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(stderr).not.toContain('internal error');
    const result = RunResultSchema.parse(JSON.parse(stdout));
    // 128 + SIGTERM, as a shell reports it
    expect(code).toBe(143);
    expect(result.error).toEqual({ kind: 'abort', message: 'interrupted by SIGTERM' });
    expect(await settleTo(() => processesIn(dir)), 'processes still running in the workspace after ptc exited').toEqual(
      [],
    );
  });
});

describe('ptc notebook: one bindings host for every cell', () => {
  test('MCP servers start once and serve every cell; an edited module restarts the host for the next cell', async () => {
    const dir = workspace();
    // `rewrite` edits the module it belongs to (handlers run unconfined, in the host): the next cell must see it
    fs.writeFileSync(
      path.join(dir, 'nb.bindings.mjs'),
      `import fs from 'node:fs';
export default {
  fx: { mcp: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(SERVER)}] }, result: 'text' },
  tools: { functions: {
    version: async () => 1,
    rewrite: async () => {
      const file = 'nb.bindings.mjs';
      fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('version: async () => 1', 'version: async () => 2'));
      return 'rewritten';
    },
  } },
};
`,
    );
    const cell = (id: string, source: string) => ({
      kind: 'code' as const,
      language: 'typescript' as const,
      source,
      metadata: { id },
    });
    fs.writeFileSync(
      path.join(dir, 'nb.ptcnb'),
      serializeNotebook({
        version: 1,
        metadata: { bindings: './nb.bindings.mjs', mode: 'live' },
        cells: [
          cell('first', 'return [await fx.counter(), await tools.version()];'),
          cell('second', 'return [await fx.counter(), await tools.rewrite()];'),
          cell('third', 'return [await fx.counter(), await tools.version()];'),
        ],
      }),
    );
    const outcome = await ptc(dir, ['notebook', 'nb.ptcnb', '--json']);
    expect(outcome.stderr).not.toContain('internal error');
    const cells = (JSON.parse(outcome.stdout) as { cells: { result: RunResult }[] }).cells.map((c) => c.result.value);
    // the server counted the first two cells' calls: one process served both; the edit restarted the host (and
    // with it the server), so the third cell sees version 2 from a fresh counter
    expect(cells).toEqual([
      ['1', 1],
      ['2', 'rewritten'],
      ['1', 2],
    ]);
    expect(outcome.code).toBe(0);
    expect(await settleTo(() => processesIn(dir)), 'processes still running in the workspace after ptc exited').toEqual(
      [],
    );
  });
});
