import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { RunResultSchema, type RunResult } from '../../../runtime/protocol/run-result.js';
import { ptc as runCli, scratchDir, type CliOutcome } from '../cli/cli-harness.js';

const { dir, write } = scratchDir('ptc-replay-test-');
let badCassettes = 0;

// The CLI outcome plus its --json result, checked against the contract schema.
async function ptc(...args: string[]): Promise<CliOutcome & { result: RunResult | undefined }> {
  const out = await runCli(...args);
  return { ...out, result: out.stdout.startsWith('{') ? RunResultSchema.parse(JSON.parse(out.stdout)) : undefined };
}

// Every handler appends to a log file, so a replay that ran a handler would be caught.
function bindingsModule(name: string, handlerLog: string, addOutput = "{ type: 'number' }"): string {
  return write(
    name,
    `import fs from 'node:fs';
const seen = (what) => fs.appendFileSync(${JSON.stringify(handlerLog)}, what + '\\n');
export default {
  tools: {
    errorClass: { name: 'ToolCallError', memberNameProperty: 'toolName' },
    functions: {
      add: {
        input: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
        output: ${addOutput},
        mock: async ({ a, b }) => { seen('add'); await new Promise((r) => setTimeout(r, (a % 3) * 40)); return a + b; },
      },
      search: { mock: async ({ q }) => { seen('search'); return { hits: [q, q.toUpperCase()], at: Date.now() }; } },
      fail: async () => { seen('fail'); throw new Error('upstream said no'); },
      liar: { output: { type: 'string' }, mock: async () => { seen('liar'); return 42; } },
    },
  },
};
`,
  );
}

const PROGRAM = `const [x, y, z] = await Promise.all([tools.add({ a: 1, b: 2 }), tools.add({ a: 2, b: 2 }), tools.add({ a: 1, b: 2 })]);
const found = await tools.search({ q: 'ptc' });
let failure = '';
try { await tools.fail(); } catch (e) { failure = e.name + '/' + e.toolName + ': ' + e.message; }
const lie = await tools.liar();
console.log('sum', x + y + z);
return { x, y, z, hits: found.hits, failure, lie };`;

// Same calls, issued in a different order: replay matches by global, name and canonical args.
const REORDERED = `const failure = await tools.fail().then(() => '', (e) => e.name + '/' + e.toolName + ': ' + e.message);
const lie = await tools.liar();
const found = await tools.search({ q: 'ptc' });
const [z, y, x] = await Promise.all([tools.add({ b: 2, a: 1 }), tools.add({ a: 2, b: 2 }), tools.add({ a: 1, b: 2 })]);
console.log('sum', x + y + z);
return { x, y, z, hits: found.hits, failure, lie };`;

const EXPECTED_VALUE = {
  x: 3,
  y: 4,
  z: 3,
  hits: ['ptc', 'PTC'],
  failure: 'ToolCallError/fail: upstream said no',
  lie: 42,
};

describe('ptc run --record / --replay', () => {
  test('record → replay round trip: same result, no handler runs, Promise.all order does not matter', async () => {
    const log = path.join(dir, 'handlers-1.log');
    const bindings = bindingsModule('rt.bindings.mjs', log);
    const program = write('rt.ts', PROGRAM);
    const cassette = path.join(dir, 'rt.cassette.json');
    const recorded = await ptc('run', program, '--bindings', bindings, '--record', cassette, '--json');
    expect(recorded.code).toBe(0);
    expect(recorded.result?.value).toEqual(EXPECTED_VALUE);
    expect(recorded.stderr).toMatch(/recorded 6 call\(s\) to /);
    expect(recorded.stderr).toMatch(/tools\.liar returned a value that violates its output schema/);
    const handlerCalls = fs.readFileSync(log, 'utf8');
    expect(handlerCalls.trim().split('\n')).toHaveLength(6);

    // the cassette: versioned, stable key order, pretty-printed, in call-id order
    const text = fs.readFileSync(cassette, 'utf8');
    expect(
      text.startsWith(
        '{\n  "version": 1,\n  "calls": [\n    {\n      "global": "tools",\n      "name": "add",\n      "args": {\n        "a": 1,',
      ),
    ).toBe(true);
    const file = JSON.parse(text) as { version: number; calls: Record<string, unknown>[] };
    expect(file.calls.map((c) => Object.keys(c).join(','))).toEqual([
      'global,name,args,ok,value,durationMs',
      'global,name,args,ok,value,durationMs',
      'global,name,args,ok,value,durationMs',
      'global,name,args,ok,value,durationMs',
      'global,name,args,ok,message,durationMs',
      'global,name,args,ok,value,schemaViolation,durationMs',
    ]);
    expect(file.calls[4]).toMatchObject({ name: 'fail', ok: false, message: 'upstream said no' });
    expect(file.calls[5]).toMatchObject({ name: 'liar', value: 42, schemaViolation: '$: must be string' });

    const replays = await Promise.all([
      ptc('run', program, '--bindings', bindings, '--replay', cassette, '--json'),
      ptc('run', write('reordered.ts', REORDERED), '--bindings', bindings, '--replay', cassette, '--json'),
      // without a module the cassette itself declares the namespaces (failures then reject as plain Errors)
      ptc('run', program, '--replay', cassette, '--json'),
    ]);
    for (const [i, r] of replays.entries()) {
      expect(r.code).toBe(0);
      expect(r.result?.mode).toBe('replay');
      expect(r.result?.replay).toEqual({ matched: 6, diverged: [], unused: 0 });
      expect(r.result?.logs).toEqual(['sum 10']);
      expect(r.result?.value).toEqual(
        i === 2 ? { ...EXPECTED_VALUE, failure: 'Error/undefined: upstream said no' } : EXPECTED_VALUE,
      );
      expect(r.result?.calls.every((c) => c.replayed === true)).toBe(true);
      expect(r.result?.calls.find((c) => c.name === 'liar')?.schemaViolation).toBe('$: must be string');
    }
    // the readable report says the same
    const report = await ptc('run', program, '--replay', cassette);
    expect(report.code).toBe(0);
    expect(report.stdout).toContain('── replay: 6 matched, 0 diverged, 0 unused ──');
    expect(report.stdout).toMatch(
      /#6 tools\.liar [\d.]+ ms ok \(replayed\)\n {5}output schema violated: \$: must be string\n/,
    );
    // not one handler ran during the replays
    expect(fs.readFileSync(log, 'utf8')).toBe(handlerCalls);
  });

  test('a call the cassette cannot answer rejects with "replay divergence:" and the result lists it; leftovers count as unused', async () => {
    const log = path.join(dir, 'handlers-2.log');
    const bindings = bindingsModule('div.bindings.mjs', log);
    const cassette = path.join(dir, 'div.cassette.json');
    await ptc('run', write('div-rec.ts', PROGRAM), '--bindings', bindings, '--record', cassette, '--json');
    const before = fs.readFileSync(log, 'utf8');
    const program = write(
      'div.ts',
      `const out = [await tools.add({ a: 1, b: 2 })];
try { await tools.add({ a: 100, b: 1 }); } catch (e) { out.push(e.name, e.message); }
return out;`,
    );
    const r = await ptc('run', program, '--bindings', bindings, '--replay', cassette, '--json');
    expect(r.code).toBe(1);
    const value = r.result?.value as string[];
    expect(value[0]).toBe(3);
    expect(value[1]).toBe('ToolCallError');
    expect(value[2]).toMatch(
      /^replay divergence: tools\.add\(\{"a":100,"b":1\}\) matches no unused recorded call \(2 unused tools\.add call\(s\) recorded with other arguments/,
    );
    expect(r.result?.replay).toEqual({
      matched: 1,
      diverged: [{ global: 'tools', name: 'add', args: { a: 100, b: 1 } }],
      unused: 5,
    });
    expect(r.stderr).toMatch(/5 recorded call\(s\) in .* were not used/);
    expect(fs.readFileSync(log, 'utf8')).toBe(before);
    // the program caught the divergence; the run still fails (exit 1) because the replay diverged
    expect(r.result?.error).toBeUndefined();

    // only unused calls (no divergence): exit 0 with the count
    const partial = await ptc(
      'run',
      write('partial.ts', 'return await tools.search({ q: "ptc" });'),
      '--bindings',
      bindings,
      '--replay',
      cassette,
      '--json',
    );
    expect(partial.code).toBe(0);
    expect(partial.result?.replay).toEqual({ matched: 1, diverged: [], unused: 5 });
    // a repeated call finds every matching recording used up
    const twice = await ptc(
      'run',
      write('twice.ts', 'await tools.search({ q: "ptc" }); return await tools.search({ q: "ptc" });'),
      '--replay',
      cassette,
      '--json',
    );
    expect(twice.code).toBe(1);
    expect(twice.result?.error?.message).toMatch(
      /^Error: replay divergence: tools\.search\(\{"q":"ptc"\}\) matches no unused recorded call \(every recorded tools\.search call is already used\)/,
    );
  });

  test.each([
    [
      'not JSON',
      '{ "version": 1, "calls": [ }',
      /^ptc run: cassette .*bad-\d\.json is not valid JSON: .*\(line 1, column \d+\)$/m,
    ],
    [
      'a wrong version',
      '{ "version": 2, "calls": [] }',
      /^ptc run: cassette .* has version 2; this build reads version 1 only$/m,
    ],
    ['no version', '{ "calls": [] }', /has version null; this build reads version 1 only/],
    [
      'a bad call',
      '{ "version": 1, "calls": [{ "global": "tools", "name": "add", "args": {}, "ok": true, "durationMs": 1 }] }',
      /is not a valid cassette:\n\$\.calls\[0\]: ok is true but "value" is missing/,
    ],
    ['an array', '[]', /must be a JSON object \{ "version": 1, "calls": \[\.\.\.\] \}/],
  ])('a cassette with %s is exit 2 with a clear message', async (_label, text, pattern) => {
    const cassette = write(`bad-${++badCassettes}.json`, text);
    const r = await ptc('run', write('any.ts', 'return 1;'), '--replay', cassette, '--json');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(pattern);
    expect(r.stderr.trim().length).toBeGreaterThan(0);
  });

  test('a missing cassette file is exit 2', async () => {
    const r = await ptc('run', write('any2.ts', 'return 1;'), '--replay', path.join(dir, 'absent.json'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot read cassette .*absent\.json: ENOENT/);
  });

  test('schema drift between the cassette and the current schemas is a warning, and the replay still runs', async () => {
    const log = path.join(dir, 'handlers-3.log');
    const cassette = path.join(dir, 'drift.cassette.json');
    const program = write('drift.ts', 'return await tools.add({ a: 1, b: 2 });');
    await ptc(
      'run',
      program,
      '--bindings',
      bindingsModule('drift-old.bindings.mjs', log),
      '--record',
      cassette,
      '--json',
    );
    // same module: no drift warning
    const same = await ptc(
      'run',
      program,
      '--bindings',
      bindingsModule('drift-same.bindings.mjs', log),
      '--replay',
      cassette,
      '--json',
    );
    expect(same.stderr).not.toMatch(/schema drift/);
    // the output schema changed since the recording
    const changed = bindingsModule(
      'drift-new.bindings.mjs',
      log,
      "{ type: 'object', properties: { total: { type: 'number' } } }",
    );
    const r = await ptc('run', program, '--bindings', changed, '--replay', cassette, '--json');
    expect(r.code).toBe(0);
    expect(r.result?.value).toBe(3);
    expect(r.stderr).toMatch(
      /^ptc run: warning: schema drift: cassette call #1 tools\.add: recorded value no longer matches the output schema: \$: must be object$/m,
    );
    // a function that no longer exists
    const gone = write(
      'drift-gone.bindings.mjs',
      'export default { tools: { functions: { other: async () => 1 } } };\n',
    );
    const r2 = await ptc('run', program, '--bindings', gone, '--replay', cassette, '--json');
    expect(r2.stderr).toMatch(
      /schema drift: cassette call #1 tools\.add: no such function in .*drift-gone\.bindings\.mjs any more/,
    );
  });

  test('--deterministic: a replay reproduces Date, Math.random and crypto values of the recording bit for bit', async () => {
    const log = path.join(dir, 'handlers-4.log');
    const bindings = bindingsModule('det.bindings.mjs', log);
    const program = write(
      'det.ts',
      `const found = await tools.search({ q: 'clock' });
return { now: Date.now(), iso: new Date().toISOString(), random: [Math.random(), Math.random()], uuid: crypto.randomUUID(), bytes: [...crypto.getRandomValues(new Uint8Array(4))], tool: found };`,
    );
    const cassette = path.join(dir, 'det.cassette.json');
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
    expect(JSON.parse(fs.readFileSync(cassette, 'utf8')).deterministic).toEqual({
      epochMs: Date.UTC(2025, 0, 1),
      seed: 1,
    });
    const [replayed, plain] = await Promise.all([
      ptc('run', program, '--bindings', bindings, '--replay', cassette, '--deterministic', '--json'),
      ptc('run', program, '--bindings', bindings, '--replay', cassette, '--json'),
    ]);
    expect(recorded.result?.value).toMatchObject({ now: Date.UTC(2025, 0, 1), iso: '2025-01-01T00:00:00.000Z' });
    expect(JSON.stringify(replayed.result?.value)).toBe(JSON.stringify(recorded.result?.value));
    // without the flag the clock and random values are live again, and the CLI says how to reproduce them
    expect((plain.result?.value as { now: number }).now).not.toBe(Date.UTC(2025, 0, 1));
    expect(JSON.stringify(plain.result?.value)).not.toBe(JSON.stringify(recorded.result?.value));
    expect(plain.stderr).toMatch(/recorded with --deterministic; add it to reproduce/);
  });

  test('an MCP-backed namespace records live and replays offline; a server update shows up as schema drift', async () => {
    const server = path.resolve('test/fixtures/mcp/server.mjs');
    const mcpModule = (name: string, command: string, env: Record<string, string> = {}): string =>
      write(
        name,
        `export default { fx: { errorClass: { name: 'McpToolError', memberNameProperty: 'tool' }, mcp: { command: ${JSON.stringify(command)}, args: [${JSON.stringify(server)}], env: ${JSON.stringify(env)} } } };\n`,
      );
    const program = write(
      'mcp.ts',
      "const sum = await fx.add({ a: 20, b: 22 });\nconst failure = await fx.explode().then(() => '', (e) => e.name + ': ' + e.message);\nreturn { sum, greeting: await fx.greet({ name: 'tape' }), failure };",
    );
    const cassette = path.join(dir, 'mcp.cassette.json');
    const expected = {
      sum: { sum: 42 },
      greeting: [{ type: 'text', text: 'Hello, tape!' }],
      failure: 'McpToolError: the fixture exploded on purpose',
    };
    const recorded = await ptc(
      'run',
      program,
      '--bindings',
      mcpModule('mcp.bindings.mjs', process.execPath),
      '--mode',
      'live',
      '--record',
      cassette,
      '--json',
    );
    expect(recorded.result?.value).toEqual(expected);
    const [offline, updated] = await Promise.all([
      // the server binary is gone: the replay still runs, with the module's error class, and says what it skipped
      ptc(
        'run',
        program,
        '--bindings',
        mcpModule('mcp-offline.bindings.mjs', '/nonexistent/node'),
        '--replay',
        cassette,
        '--json',
      ),
      ptc(
        'run',
        program,
        '--bindings',
        mcpModule('mcp-v2.bindings.mjs', process.execPath, { PTC_FIXTURE_ADD_OUTPUT: 'v2' }),
        '--replay',
        cassette,
        '--json',
      ),
    ]);
    expect(offline.code).toBe(0);
    expect(offline.result?.value).toEqual(expected);
    expect(offline.result?.replay).toEqual({ matched: 3, diverged: [], unused: 0 });
    expect(offline.stderr).toMatch(
      /warning: fx: MCP server of fx \(\/nonexistent\/node .*\) could not start: .*ENOENT\n\(continuing without the server's tool list/,
    );
    expect(offline.stderr).not.toMatch(/schema drift/);
    expect(updated.code).toBe(0);
    expect(updated.result?.value).toEqual(expected);
    expect(updated.stderr).toMatch(
      /schema drift: cassette call #1 fx\.add: recorded value no longer matches the output schema: \$\.total: is required/,
    );
  });

  test('--record and --replay together is misuse', async () => {
    const r = await ptc('run', write('both.ts', 'return 1;'), '--record', 'a.json', '--replay', 'b.json');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--record and --replay cannot be combined/);
  });
});
