import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { listDescendants } from '../../../runtime/process/launch.js';
import { RunResultSchema } from '../../../runtime/protocol/run-result.js';
import { eventually, settleTo } from '../../helpers/eventually.js';
import { alive } from '../../helpers/processes.js';
import { CLI, ptc, scratchDir } from './cli-harness.js';

const { dir, write } = scratchDir('ptc-cli-test-');

const BINDINGS = `export default {
  tools: {
    errorClass: { name: 'ToolCallError', memberNameProperty: 'toolName' },
    functions: {
      add: { description: 'Add two numbers.', mock: async ({ a, b }) => a + b, live: async ({ a, b }) => 1000 + a + b },
      echo: async (args) => args,
    },
  },
};\n`;

describe.concurrent('ptc run', () => {
  test('--json prints exactly one RunResult and exits 0 on success', async () => {
    const file = write('ok.ts', "console.log('hi');\nreturn { n: 1 as number };");
    const r = await ptc('run', file, '--json');
    expect(r.code).toBe(0);
    const result = RunResultSchema.parse(JSON.parse(r.stdout));
    expect(result).toMatchObject({ language: 'typescript', value: { n: 1 }, logs: ['hi'] });
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
  });

  test('a failing program exits 1 and the readable report shows a code frame', async () => {
    const file = write('fail.ts', "const a = 1;\nthrow new Error('boom');");
    const r = await ptc('run', file);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/failed: exception/);
    expect(r.stdout).toMatch(/> 2 \| throw new Error\('boom'\);/);
    expect(r.stdout).toMatch(/\^/);
  });

  test('bindings modules load, and --mode picks mock or live handlers', async () => {
    const bindings = write('tools.bindings.mjs', BINDINGS);
    const file = write('add.ts', 'return await tools.add({ a: 1, b: 2 });');
    const mock = await ptc('run', file, '--bindings', bindings, '--json');
    expect(JSON.parse(mock.stdout).value).toBe(3);
    const live = await ptc('run', file, '--bindings', bindings, '--mode', 'live', '--json');
    expect(JSON.parse(live.stdout)).toMatchObject({ value: 1003, mode: 'live' });
  });

  test('limits flags reach the runtime', async () => {
    const file = write('spin.ts', 'while (true) {}');
    const r = await ptc('run', file, '--timeout-ms', '300', '--json');
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).error).toEqual({ kind: 'timeout', message: 'execution deadline reached (300ms)' });
  });

  test('--max-calls ends a run at its call budget, and --mode live has a low one by default', async () => {
    const bindings = write('budget.bindings.mjs', BINDINGS);
    const file = write('loop.ts', 'let n = 0;\nwhile (true) n = await tools.add({ a: n, b: 1 });');
    const capped = await ptc('run', file, '--bindings', bindings, '--max-calls', '7', '--json');
    expect(capped.code).toBe(1);
    const result = RunResultSchema.parse(JSON.parse(capped.stdout));
    expect(result.error?.kind).toBe('call-limit');
    expect(result.error?.message).toContain('maxCalls 7');
    expect(result.calls).toHaveLength(7);
    const live = await ptc('run', file, '--bindings', bindings, '--mode', 'live', '--json');
    expect(JSON.parse(live.stdout).error).toMatchObject({
      kind: 'call-limit',
      message: expect.stringContaining('maxCalls 1000'),
    });
  });

  test.each([
    [['run', 'x.ts', '--max-calls', '0'], /--max-calls expects a positive integer/],
    [['run', '/nonexistent/prog.ts'], /cannot read program file/],
    [['run'], /missing program file/],
    [['run', 'x.ts', '--timeout-ms', 'soon'], /--timeout-ms expects a positive integer/],
    [['run', 'x.ts', '--bogus'], /bogus/],
    [['run', 'x.ts', '--sandbox', 'maybe'], /--sandbox expects one of/],
    [['frobnicate'], /unknown command/],
  ])('misuse %j exits 2 with a one-line message', async (args, pattern) => {
    const r = await ptc(...(args as string[]));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(pattern);
  });

  test('an invalid bindings module exits 2 naming the offending key', async () => {
    const bindings = write('bad.bindings.mjs', 'export default { tools: { functions: { add: 42 } } };\n');
    const file = write('any.ts', 'return 1;');
    const r = await ptc('run', file, '--bindings', bindings);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/tools\.functions\.add/);
  });

  test('SIGINT during a run aborts it, still prints the result, and leaves no process behind', async () => {
    const marker = path.join(dir, 'started.marker');
    // unconfined so the program can tell the test it is running
    const file = write(
      'forever.ts',
      `console.log('started');\n(await import('node:fs')).writeFileSync(${JSON.stringify(marker)}, 'x');\nawait new Promise(() => {});`,
    );
    const child = spawn(process.execPath, [CLI, 'run', file, '--json', '--sandbox', 'off'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    await eventually('the program to write its start marker', () => fs.existsSync(marker));
    // the program's processes, found while it runs: once ptc is gone they are no longer its descendants
    const program = listDescendants(child.pid as number).filter((pid) => {
      try {
        return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('node-child.cjs');
      } catch {
        return false;
      }
    });
    expect(program.length).toBeGreaterThan(0);
    child.kill('SIGINT');
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    // 128 + SIGINT, as a shell reports it
    expect(code).toBe(130);
    const result = JSON.parse(stdout);
    expect(result.error.kind).toBe('abort');
    expect(result.logs).toEqual(['started']);
    expect(
      await settleTo(() => program.filter(alive)),
      'the program processes of the interrupted run still running',
    ).toEqual([]);
  });
});
