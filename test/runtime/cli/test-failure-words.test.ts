// A failing `ptc test` cell says how its run failed (issue 28.6), in the text, JSON and JUnit reports: an expectation
// that covers only the value used to report "missing / got (nothing)" for a run that timed out. Real CLI processes.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ptcWith, scratchDir } from './cli-harness.js';

const CASSETTE = { version: 1, deterministic: { epochMs: 1735689600000, seed: 1 }, calls: [] };

describe('ptc test: how a run failed', { timeout: 180_000 }, () => {
  const scratch = scratchDir('ptc-test-words-');

  it('a run that timed out under the frozen clock says so, and why, in every report', async () => {
    const cells = [
      // waits for the clock to move: under ptc test it never does
      {
        id: 'wait',
        language: 'typescript',
        source: 'const t = Date.now();\nwhile (Date.now() - t < 10) {}\nreturn 1;',
      },
      { id: 'throws', language: 'python', source: "raise ValueError('no such city')" },
    ].map(({ id, language, source }) => ({
      kind: 'code',
      language,
      source,
      metadata: { id, expect: { value: { match: 'exact', is: 1 } } },
    }));
    fs.writeFileSync(path.join(scratch.dir, 'a.ptcnb'), JSON.stringify({ version: 1, cells }));
    fs.mkdirSync(path.join(scratch.dir, '.ptc/cassettes/a'), { recursive: true });
    for (const id of ['wait', 'throws'])
      fs.writeFileSync(path.join(scratch.dir, `.ptc/cassettes/a/${id}.json`), JSON.stringify(CASSETTE));
    const timeout =
      'the run timed out: execution deadline reached (3000ms) (the clock is frozen under ptc test: a wait loop on Date.now() or time.time() never ends)';

    const text = await ptcWith({ cwd: scratch.dir }, 'test', '--timeout-ms', '3000');
    expect(text.code).toBe(1);
    expect(text.stdout).toContain(`  ✗ wait\n      ${timeout}\n      value (exact) differs at $: missing`);
    expect(text.stdout).toMatch(/ {2}✗ throws\n {6}the run failed \(exception\): .*ValueError: no such city/);

    const json = await ptcWith({ cwd: scratch.dir }, 'test', '--timeout-ms', '3000', '--reporter', 'json');
    const report = JSON.parse(json.stdout) as { notebooks: { cells: { name: string; problem?: string }[] }[] };
    expect(report.notebooks[0]?.cells.find((c) => c.name === 'wait')?.problem).toBe(timeout);

    const junit = await ptcWith({ cwd: scratch.dir }, 'test', '--timeout-ms', '3000', '--reporter', 'junit');
    expect(junit.stdout).toContain(`<failure message="${timeout}">`);
  });
});
