import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { RunResultSchema, type RunResult } from '../../../runtime/protocol/run-result.js';
import { ptc as runCli, scratchDir } from '../cli/cli-harness.js';

const { dir, write } = scratchDir('ptc-pyreplay-test-');

async function ptc(...args: string[]): Promise<{ code: number; stderr: string; result: RunResult }> {
  const out = await runCli(...args);
  return { code: out.code, stderr: out.stderr, result: RunResultSchema.parse(JSON.parse(out.stdout)) };
}

const BINDINGS = `import fs from 'node:fs';
const seen = (what) => fs.appendFileSync(${JSON.stringify(path.join(dir, 'handlers.log'))}, what + '\\n');
export default {
  tools: {
    errorClass: { name: 'ToolCallError', memberNameProperty: 'toolName' },
    functions: {
      add: {
        input: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
        mock: async ({ a, b }) => { seen('add'); await new Promise((r) => setTimeout(r, (a % 3) * 30)); return a + b; },
      },
      'my-tool': async () => { seen('my-tool'); return { stamp: Date.now() }; },
      fail: async () => { seen('fail'); throw new Error('upstream said no'); },
    },
  },
};
`;

const PROGRAM = `import asyncio, random, time, uuid
x, y = await asyncio.gather(tools.add({"a": 1, "b": 2}), tools.add({"a": 2, "b": 2}))
mine = await tools["my-tool"]({})
try:
    await tools.fail({})
except ToolCallError as e:
    failure = [type(e).__name__, e.toolName, str(e)]
try:
    await tools.add({"a": "one"})
except ToolCallError as e:
    refused = str(e)
return {"x": x, "y": y, "mine": mine, "failure": failure, "refused": refused,
        "time": time.time(), "random": [random.random(), random.randint(0, 10**9)]}`;

describe('Python programs: bindings, record and replay', () => {
  test('a Python record → replay round trip with --deterministic reproduces time.time and random bit for bit', async () => {
    const bindings = write('py.bindings.mjs', BINDINGS);
    const program = write('prog.py', PROGRAM);
    const cassette = path.join(dir, 'py.cassette.json');
    const recorded = await ptc(
      'run',
      program,
      '--bindings',
      bindings,
      '--record',
      cassette,
      '--deterministic',
      '--json',
    );
    expect(recorded.code).toBe(0);
    const value = recorded.result.value as Record<string, unknown>;
    expect(value).toMatchObject({
      x: 3,
      y: 4,
      failure: ['ToolCallError', 'fail', 'upstream said no'],
      refused:
        'invalid arguments for tools.add: $.b: is required\ninvalid arguments for tools.add: $.a: must be number',
      time: Date.UTC(2025, 0, 1) / 1000,
    });
    const handlerLog = fs.readFileSync(path.join(dir, 'handlers.log'), 'utf8');
    // the same calls issued in another order still match, and no handler runs
    const reordered = write(
      'reordered.py',
      PROGRAM.replace(
        'x, y = await asyncio.gather(tools.add({"a": 1, "b": 2}), tools.add({"a": 2, "b": 2}))',
        'y, x = await asyncio.gather(tools.add({"b": 2, "a": 2}), tools.add({"b": 2, "a": 1}))',
      ),
    );
    const [replayed, again] = await Promise.all([
      ptc('run', program, '--bindings', bindings, '--replay', cassette, '--deterministic', '--json'),
      ptc('run', reordered, '--bindings', bindings, '--replay', cassette, '--deterministic', '--json'),
    ]);
    for (const r of [replayed, again]) {
      expect(r.code).toBe(0);
      expect(JSON.stringify(r.result.value)).toBe(JSON.stringify(recorded.result.value));
      expect(r.result.replay).toEqual({ matched: 5, diverged: [], unused: 0 });
    }
    expect(fs.readFileSync(path.join(dir, 'handlers.log'), 'utf8')).toBe(handlerLog);
  });

  test('a Python divergence raises the error class with the "replay divergence:" message', async () => {
    const bindings = write('py2.bindings.mjs', BINDINGS);
    const cassette = path.join(dir, 'py2.cassette.json');
    await ptc(
      'run',
      write('rec.py', 'return await tools.add({"a": 1, "b": 1})'),
      '--bindings',
      bindings,
      '--record',
      cassette,
      '--json',
    );
    const r = await ptc(
      'run',
      write('div.py', 'try:\n    await tools.add({"a": 5, "b": 5})\nexcept ToolCallError as e:\n    return str(e)'),
      '--bindings',
      bindings,
      '--replay',
      cassette,
      '--json',
    );
    expect(r.code).toBe(1);
    expect(r.result.value).toMatch(/^replay divergence: tools\.add\(\{"a":5,"b":5\}\) matches no unused recorded call/);
    expect(r.result.replay).toEqual({
      matched: 0,
      diverged: [{ global: 'tools', name: 'add', args: { a: 5, b: 5 } }],
      unused: 1,
    });
  });
});
