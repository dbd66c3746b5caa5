import { spawn } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { maxLogEntries } from '../../../runtime/output/ledger.js';
import { RunResultSchema } from '../../../runtime/protocol/run-result.js';
import { CLI, ptc, scratchDir } from './cli-harness.js';

// The host never crashes on what a program hands it: any depth the runtime accepts is printed (exit 0/1, never 3),
// and program text reaches the terminal with its control characters shown, never acting.
const { write } = scratchDir('ptc-host-bounds-');

const BINDINGS = write(
  'deep.bindings.mjs',
  `export default { tools: { functions: {
  echo: async (args) => args,
  deep: async ({ n }) => { let v = 1; for (let i = 0; i < n; i++) v = [v]; return v; },
  fail: async ({ why }) => { throw new Error(why); },
} } };\n`,
);

const deepProgram = {
  typescript: (n: number) =>
    `let v: unknown = 1;\nfor (let i = 0; i < ${n}; i++) v = [v];\nconst echoed = await tools.echo({ v });\nconst made = await tools.deep({ n: ${n} });\nreturn [v, made];\n`,
  python: (n: number) =>
    `v = 1\nfor i in range(${n}):\n    v = [v]\nechoed = await tools.echo({"v": v})\nmade = await tools.deep({"n": ${n}})\nreturn [v, made]\n`,
};

// Depth of a value nested through single-element arrays (walked, not recursed).
function depthOf(value: unknown): number {
  let depth = 0;
  let at = value;
  while (Array.isArray(at)) {
    at = at[0];
    depth++;
  }
  return depth;
}

// one at a time, each given minutes: a 200 000-deep value is checked several times on its way (seconds of CPU on a
// loaded two-core machine); what is asserted is the output and the exit code, never the time
describe('ptc run: values nested deeper than JSON.stringify can go', { timeout: 300_000 }, () => {
  test.each([
    ['typescript', 5_000],
    ['typescript', 50_000],
    ['typescript', 200_000],
    ['python', 5_000],
    ['python', 200_000],
  ] as const)(
    '%s, %i deep: --json prints the whole result and the report prints it, both exit 0',
    async (language, n) => {
      const file = write(`deep-${n}.${language === 'typescript' ? 'ts' : 'py'}`, deepProgram[language](n));
      const [json, report] = await Promise.all([
        ptc('run', file, '--bindings', BINDINGS, '--json'),
        ptc('run', file, '--bindings', BINDINGS),
      ]);
      expect(json.stderr).toBe('');
      expect(json.code).toBe(0);
      const result = JSON.parse(json.stdout) as { value: unknown[]; calls: { args: { v: unknown }; value: unknown }[] };
      expect(depthOf(result.value[0])).toBe(n);
      expect(depthOf(result.value[1])).toBe(n);
      expect(depthOf(result.calls[0]?.args.v)).toBe(n);
      expect(depthOf(result.calls[1]?.value)).toBe(n);
      expect(report.stderr).toBe('');
      expect(report.code).toBe(0);
      expect(report.stdout).toContain('── value ──');
      expect(report.stdout).toContain('── 2 binding call(s) ──');
      // the value's text is in the report: as many opening brackets as levels, twice
      expect(report.stdout.split('[').length - 1).toBeGreaterThanOrEqual(2 * n);
    },
  );

  test('a deep cassette is recorded, replayed and printed', async () => {
    const file = write('deep-replay.ts', deepProgram.typescript(20_000));
    const cassette = write('deep-cassette.json', '');
    const recorded = await ptc('run', file, '--bindings', BINDINGS, '--record', cassette, '--json');
    expect(recorded.code).toBe(0);
    const replayed = await ptc('run', file, '--replay', cassette, '--json');
    expect(replayed.code).toBe(0);
    const result = JSON.parse(replayed.stdout) as { mode: string; value: unknown[]; replay: { matched: number } };
    expect(result.mode).toBe('replay');
    expect(result.replay.matched).toBe(2);
    expect(depthOf(result.value[1])).toBe(20_000);
  });

  test('a deep failure (a thrown program after deep calls) still exits 1 with its report', async () => {
    const file = write(
      'deep-throw.ts',
      `${deepProgram.typescript(30_000).replace(/return .*$/m, "throw new Error('after deep calls');")}`,
    );
    const report = await ptc('run', file, '--bindings', BINDINGS);
    expect(report.code).toBe(1);
    expect(report.stdout).toContain('── failed: exception ──');
    const json = await ptc('run', file, '--bindings', BINDINGS, '--json');
    expect(json.code).toBe(1);
    expect(RunResultSchema.parse(JSON.parse(json.stdout)).error?.kind).toBe('exception');
  });
});

// Everything a terminal would act on: C0 controls but tab and newline, DEL, C1 controls, bidi controls.
const ACTIVE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

const HOSTILE_TEXT = [
  '\u001b]0;pwned title\u0007', // set the window title
  '\u001b]52;c;cHduZWQ=\u0007', // write the clipboard (OSC 52)
  '\u001b[2J\u001b[H', // clear the screen
  '\u009b31m', // C1 CSI
  'abc\u202edcba', // right-to-left override
  'bell\u0007 cr\r del\u007f nul\u0000',
];

describe.concurrent('ptc run: control characters in program text are shown, never sent raw', () => {
  const ts = write(
    'hostile-text.ts',
    `const texts = ${JSON.stringify(HOSTILE_TEXT)};
for (const t of texts) console.log(t);
console.error(texts[0]);
console.log('tab\\there\\nsecond line');
await tools.fail({ why: texts[1] }).catch(() => undefined);
return { texts, plain: texts[2] };
`,
  );

  test('the readable report escapes them (ESC as \\x1b) and keeps tabs and newlines', async () => {
    const r = await ptc('run', ts, '--bindings', BINDINGS);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(ACTIVE);
    expect(r.stdout).toContain('  \\x1b]0;pwned title\\x07');
    expect(r.stdout).toContain('! \\x1b]0;pwned title\\x07');
    expect(r.stdout).toContain('\\x1b]52;c;cHduZWQ=\\x07');
    expect(r.stdout).toContain('\\x9b31m');
    expect(r.stdout).toContain('abc\\u202edcba');
    expect(r.stdout).toContain('bell\\x07 cr\\x0d del\\x7f nul\\x00');
    // a multi-line entry keeps its tab and its line break, the continuation indented under its prefix
    expect(r.stdout).toContain('  tab\there\n  second line\n');
    // the failed call's message, and the value's JSON (C1 and bidi controls as JSON escapes)
    expect(r.stdout).toContain('failed: \\x1b]52;c;cHduZWQ=\\x07');
    expect(r.stdout).toContain('"\\u009b31m"');
    expect(r.stdout).toContain('"abc\\u202edcba"');
  });

  test('--json keeps the exact text as JSON escapes (C1 and bidi controls too) and exits 0', async () => {
    const r = await ptc('run', ts, '--bindings', BINDINGS, '--json');
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(ACTIVE);
    const result = RunResultSchema.parse(JSON.parse(r.stdout));
    expect(result.logs.slice(0, HOSTILE_TEXT.length)).toEqual(HOSTILE_TEXT);
    expect(result.calls[0]?.message).toBe(HOSTILE_TEXT[1]);
  });

  test('a failure message, a returned string and the code frame are escaped too (exit 1 for the failure)', async () => {
    const thrower = write(
      'hostile-throw.ts',
      `// \u001b]0;source title\u0007\nthrow new Error('\\u001b]0;message title\\u0007');\n`,
    );
    const failed = await ptc('run', thrower);
    expect(failed.code).toBe(1);
    expect(failed.stdout).not.toMatch(ACTIVE);
    expect(failed.stdout).toContain('\\x1b]0;message title\\x07');
    const text = write('hostile-string.py', `return "\\x1b]0;py title\\x07\\u202e"\n`);
    const ok = await ptc('run', text);
    expect(ok.code).toBe(0);
    expect(ok.stdout).not.toMatch(ACTIVE);
    expect(ok.stdout).toContain('\\x1b]0;py title\\x07\\u202e');
  });
});

describe('ptc notebook: deep values and control characters', { timeout: 300_000 }, () => {
  const notebook = write(
    'host-bounds.ptcnb',
    `${JSON.stringify({
      version: 1,
      metadata: { bindings: './deep.bindings.mjs' },
      cells: [
        { kind: 'code', language: 'typescript', source: deepProgram.typescript(50_000), metadata: { id: 'deep-ts' } },
        { kind: 'code', language: 'python', source: deepProgram.python(50_000), metadata: { id: 'deep-py' } },
        {
          kind: 'code',
          language: 'typescript',
          source: `for (const t of ${JSON.stringify(HOSTILE_TEXT)}) console.log(t);\nreturn '\\u001b]0;title\\u0007';`,
        },
      ],
    })}\n`,
  );

  test('--json and the readable output print every cell, escape control characters, and exit 0', async () => {
    const [json, text] = await Promise.all([ptc('notebook', notebook, '--json'), ptc('notebook', notebook)]);
    expect(json.stderr).toBe('');
    expect(json.code).toBe(0);
    expect(json.stdout).not.toMatch(ACTIVE);
    const cells = (JSON.parse(json.stdout) as { cells: { result: { value: unknown; logs: string[] } }[] }).cells;
    expect(cells.map((c) => depthOf((c.result.value as unknown[])[1]))).toEqual([50_000, 50_000, 0]);
    expect(cells[2]?.result.logs).toEqual(HOSTILE_TEXT);
    expect(text.code).toBe(0);
    expect(text.stdout).not.toMatch(ACTIVE);
    expect(text.stdout).toContain('  \\x1b]52;c;cHduZWQ=\\x07');
    expect(text.stdout).toContain('3 of 3 code cell(s) succeeded');
  });
});

describe('ptc run: a reader that goes away', () => {
  test("output piped into a reader that closes early (`| head`) ends quietly with the program's exit code", async () => {
    const file = write(
      'many-lines.ts',
      "for (let i = 0; i < 200_000; i++) console.log('line', i, 'x'.repeat(40));\nreturn 1;",
    );
    for (const mode of [['--json'], []]) {
      const child = spawn(process.execPath, [CLI, 'run', file, ...mode], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      // read the first chunk, then close the pipe like `head -c 1` does
      child.stdout.once('data', () => child.stdout.destroy());
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(stderr).toBe('');
      expect(code).toBe(0);
    }
  });
});

describe.concurrent('ptc run: many binding calls keep a bounded call log', { timeout: 300_000 }, () => {
  const programs = {
    typescript: write(
      'many-calls.ts',
      `for (let i = 0; i < 5_000; i += 500) {
  await Promise.all(Array.from({ length: 500 }, (_, j) => (i + j) % 10 === 9 ? tools.fail({ why: 'no' }).catch(() => null) : tools.echo({ n: i + j })));
}
return 'done';
`,
    ),
    python: write(
      'many-calls.py',
      `import asyncio
async def one(n):
    if n % 10 == 9:
        try:
            await tools.fail({"why": "no"})
        except Exception:
            return None
    return await tools.echo({"n": n})
for i in range(0, 5000, 500):
    await asyncio.gather(*[one(i + j) for j in range(500)])
return "done"
`,
    ),
  };

  test.each(['typescript', 'python'] as const)(
    '%s: 5 000 calls keep the first 1 000 and the last 20 in full, and count every call',
    async (language) => {
      const [json, report] = await Promise.all([
        ptc('run', programs[language], '--bindings', BINDINGS, '--json'),
        ptc('run', programs[language], '--bindings', BINDINGS),
      ]);
      expect(json.code).toBe(0);
      const result = RunResultSchema.parse(JSON.parse(json.stdout));
      expect(result.calls.map((c) => c.id)).toEqual(Array.from({ length: 1_000 }, (_, i) => i + 1));
      expect(result.callSummary).toMatchObject({
        total: 5_000,
        omitted: 3_980,
        byBinding: [
          { global: 'tools', name: 'echo', calls: 4_500, ok: 4_500, failed: 0 },
          { global: 'tools', name: 'fail', calls: 500, ok: 0, failed: 500 },
        ],
      });
      expect(result.callSummary?.last.map((c) => c.id)).toEqual(Array.from({ length: 20 }, (_, i) => 4_981 + i));
      // call n is issued n+1-th: the last (n = 4 999) fails, the one before echoes
      expect(result.callSummary?.last.at(-1)).toMatchObject({ id: 5_000, name: 'fail', ok: false, message: 'no' });
      expect(result.callSummary?.last.at(-2)).toMatchObject({
        id: 4_999,
        name: 'echo',
        ok: true,
        args: { n: 4_998 },
        value: { n: 4_998 },
      });
      expect(report.code).toBe(0);
      expect(report.stdout).toContain('── 5000 binding call(s) ──');
      expect(report.stdout).toContain("… 4930 more (the first 1000 are in --json's calls; the rest are counted below)");
      expect(report.stdout).toContain('  #5000 tools.fail');
      expect(report.stdout).toContain(
        '  tools.echo: 4500 call(s), 4500 ok, 0 failed\n  tools.fail: 500 call(s), 0 ok, 500 failed\n',
      );
    },
  );
});

describe.concurrent('ptc: misuse naming hostile file text exits 2 with the text made visible', () => {
  test.each([
    [
      'a corrupt cassette',
      (dir: (n: string, t: string) => string) => [
        'run',
        dir('ok.ts', 'return 1;'),
        '--replay',
        dir('bad-cassette.json', '\u001b]0;title\u0007 {'),
      ],
    ],
    [
      'a corrupt notebook',
      (dir: (n: string, t: string) => string) => [
        'notebook',
        dir('bad.ptcnb', '{"version": 1, "cells": [\u001b]52;c;eA==\u0007'),
      ],
    ],
  ])('%s', async (_name, args) => {
    const r = await ptc(...args(write));
    expect(r.code).toBe(2);
    expect(r.stderr).not.toMatch(ACTIVE);
    // quoted as an escape (the cassette's JSON error quotes the text) or named (the notebook parser's own message)
    expect(r.stderr).toMatch(/\\x1b|U\+001B/);
  });
});

describe.concurrent(
  'ptc run: a flood of empty lines is bounded by entries, not only bytes',
  { timeout: 300_000 },
  () => {
    test.each([
      ['typescript', 'empty-flood.ts', "for (;;) console.log('');"],
      ['python', 'empty-flood.py', "while True:\n    print('')"],
    ])('%s: ends as output-limit after maxLogEntries entries (exit 1)', async (_language, name, source) => {
      const r = await ptc('run', write(name, source), '--json', '--timeout-ms', '240000');
      expect(r.code).toBe(1);
      const result = RunResultSchema.parse(JSON.parse(r.stdout));
      expect(result.error).toEqual({
        kind: 'output-limit',
        message: `outer output exceeded ${maxLogEntries(64 * 1024 * 1024)} log entries`,
      });
      expect(result.logs).toHaveLength(maxLogEntries(64 * 1024 * 1024));
      expect(result.logs.every((l) => l === '')).toBe(true);
    });
  },
);
