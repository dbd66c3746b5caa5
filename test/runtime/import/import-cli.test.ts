import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { ptc } from '../cli/cli-harness.js';
import { TRANSCRIPT_FORMATS } from '../../../runtime/import/index.js';
import { EXAMPLES, scratch } from './import-helpers.js';

const fresh = scratch('ptc-import-cli-');
const SALES = path.join(EXAMPLES, 'anthropic-sales.json');

describe('ptc import', { timeout: 180_000 }, () => {
  test('imports, replays with --verify and reports each cell', async () => {
    const out = path.join(fresh(), 'sales.ptcnb');
    const run = await ptc('import', SALES, '--output', out, '--verify');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      'as Anthropic Messages API (programmatic tool calling) (JSON, request/response log): 1 program(s)',
    );
    expect(run.stdout).toContain('✓ srvtoolu_01Q3RegionRevenue: the replay matches the transcript');
    // the same notebook replays through `ptc notebook`, the extension's code path
    const replay = await ptc('notebook', out, '--json');
    expect(replay.code).toBe(0);
    const cells = (
      JSON.parse(replay.stdout) as { cells: { plan: string; result: { logs: string[]; replay: unknown } }[] }
    ).cells;
    expect(cells).toHaveLength(1);
    expect(cells[0]).toMatchObject({
      plan: 'replay',
      result: { logs: ['West: 412000 USD', 'East: 389500 USD', 'Central: 157250 USD', 'Highest: West, 379040 EUR'] },
    });
  });

  test('never replaces existing files without --force, and writes nothing then', async () => {
    const dir = fresh();
    const out = path.join(dir, 'n.ptcnb');
    expect((await ptc('import', SALES, '--output', out)).code).toBe(0);
    fs.writeFileSync(out, 'hand edits');
    const again = await ptc('import', SALES, '--output', out);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/already exist.*nothing was written \(use --force to replace\)/);
    expect(fs.readFileSync(out, 'utf8')).toBe('hand edits');
    expect((await ptc('import', SALES, '--output', out, '--force')).code).toBe(0);
    expect(fs.readFileSync(out, 'utf8')).toContain('"version": 1');
  });

  test('a bad transcript: exit 2, one located message, nothing written', async () => {
    const dir = fresh();
    const bad = path.join(dir, 'bad.json');
    fs.writeFileSync(bad, '{\n  "model": "m",\n  "messages": [ { "role": "user", "content": 7 } ]\n}\n');
    const run = await ptc('import', bad, '--output', path.join(dir, 'o.ptcnb'), '--format', 'anthropic');
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `ptc import: ${bad}:3:46: messages[0].content: expected an array, got the number 7\nnothing was written\n`,
    );
    expect(fs.readdirSync(dir)).toEqual(['bad.json']);
  });

  test('--map moves a tool to another namespace and function; the replay still matches', async () => {
    const dir = fresh();
    const out = path.join(dir, 'mapped.ptcnb');
    const run = await ptc(
      'import',
      SALES,
      '--output',
      out,
      '--map',
      'query_database=sales.query',
      '--map',
      'unused_tool=x.y',
      '--verify',
      '--json',
    );
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as { warnings: string[]; verify: { comparison: { agrees: boolean } }[] };
    expect(report.warnings).toEqual(['--map unused_tool: no tool of that name in the transcript(s)']);
    expect(report.verify[0]?.comparison.agrees).toBe(true);
    const notebook = fs.readFileSync(out, 'utf8');
    expect(notebook).toContain('query_database = __ptc_tool(sales[\\"query\\"], [\\"sql\\"])');
    const cassette = fs.readFileSync(
      path.join(dir, '.ptc', 'cassettes', 'mapped', 'srvtoolu_01Q3RegionRevenue.json'),
      'utf8',
    );
    expect(cassette).toContain('"global": "sales",\n      "name": "query"');
    expect(fs.readFileSync(path.join(dir, 'mapped.bindings.mjs'), 'utf8')).toMatch(
      /"sales": \{\s+"functions": \{\s+"query": \{/,
    );
  });

  test('--mapping reads a file; its mistakes name the file, line and tool', async () => {
    const dir = fresh();
    const mapping = path.join(dir, 'map.json');
    fs.writeFileSync(mapping, '{\n  "query_database": "sales.query",\n  "get_exchange_rate": "class.rate"\n}\n');
    const run = await ptc('import', SALES, '--output', path.join(dir, 'o.ptcnb'), '--mapping', mapping);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `ptc import: ${mapping}:3:24: get_exchange_rate: the namespace "class" is a JavaScript or Python reserved word\n`,
    );
  });

  test('--map does not apply to programs that name their namespaces themselves', async () => {
    const run = await ptc(
      'import',
      path.join(EXAMPLES, 'deepseek-session.jsonl'),
      '--output',
      path.join(fresh(), 'o.ptcnb'),
      '--map',
      'grep=search.grep',
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--map grep: deepseek programs call their namespaces by name (tools.grep)');
  });

  test('--bindings uses an existing module instead of generating one', async () => {
    const dir = fresh();
    const bindings = path.join(dir, 'mine', 'tools.bindings.mjs');
    fs.mkdirSync(path.dirname(bindings));
    fs.writeFileSync(
      bindings,
      'export default { tools: { functions: { lookupCity: async () => null, add: async () => 0, now: async () => "" } } };\n',
    );
    const out = path.join(dir, 'nb', 'cities.ptcnb');
    const run = await ptc(
      'import',
      path.join(EXAMPLES, 'ptc-trace-cities.jsonl'),
      '--output',
      out,
      '--bindings',
      bindings,
      '--verify',
    );
    expect(run.code).toBe(0);
    expect(JSON.parse(fs.readFileSync(out, 'utf8')).metadata.bindings).toBe('../mine/tools.bindings.mjs');
    expect(fs.readdirSync(path.dirname(out)).sort()).toEqual(['.ptc', 'cities.ptcnb']);
  });

  test('usage mistakes', async () => {
    expect(await ptc('import')).toMatchObject({ code: 2, stderr: 'ptc import: missing transcript file\n' });
    expect(await ptc('import', SALES, '--format', 'claude')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining(`--format expects one of ${TRANSCRIPT_FORMATS.join('|')}`),
    });
    expect(await ptc('import', SALES, '--output', 'x.json')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--output must name a .ptcnb notebook'),
    });
    expect(await ptc('import', SALES, '--map', 'nodot')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--map expects tool=namespace.function'),
    });
  });

  test('--verify exits 1 when a cell without marks does not reproduce what the transcript recorded', async () => {
    const dir = fresh();
    const trace = path.join(dir, 'clock.jsonl');
    // a program whose output depended on the moment it ran: replayed, it prints something else
    fs.writeFileSync(
      trace,
      [
        '{"type":"ptc-trace","version":1}',
        '{"type":"program","id":"clock","language":"typescript","source":"console.log(new Date(0).getUTCFullYear() === 1970 ? \'later\' : \'earlier\');"}',
        '{"type":"result","program":"clock","logs":["earlier"]}',
      ].join('\n'),
    );
    const run = await ptc('import', trace, '--output', path.join(dir, 'clock.ptcnb'), '--verify');
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      '✗ clock: differs from the transcript:\n      printed output differs at line 1: "earlier" then, "later" now\n',
    );
  });
});

describe('ptc run --trace', { timeout: 180_000 }, () => {
  test('writes a trace that imports back into a notebook whose replay matches the run', async () => {
    const dir = fresh();
    const trace = path.join(dir, 'run.jsonl');
    const program = path.join(dir, 'p.py');
    fs.writeFileSync(
      program,
      'import asyncio\nxs = await asyncio.gather(tools.add({"a": 1, "b": 2}), tools.add({"a": 3, "b": 4}))\nprint(xs)\nreturn sum(xs)\n',
    );
    const run = await ptc(
      'run',
      program,
      '--bindings',
      path.resolve('examples/programs/tools.bindings.mjs'),
      '--trace',
      trace,
      '--json',
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`wrote the trace to ${trace}`);
    const records = fs
      .readFileSync(trace, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string });
    expect(records.map((r) => r.type)).toEqual(['ptc-trace', 'bindings', 'program', 'call', 'call', 'result']);
    expect(records[5]).toMatchObject({ type: 'result', logs: ['[3, 7]'], value: 10 });
    const imported = await ptc('import', trace, '--output', path.join(dir, 'run.ptcnb'), '--verify');
    expect(imported.code).toBe(0);
    expect(imported.stdout).toContain('✓ run-1: the replay matches the transcript');
  });
});
