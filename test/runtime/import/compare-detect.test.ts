import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import os from 'node:os';
import { compareWithTranscript, planImport, runTraceLines, type ThenRecord } from '../../../runtime/import/index.js';
import { detectFormat } from '../../../runtime/import/detect.js';
import { apiDocuments } from '../../../runtime/import/http-log.js';
import { ImportFailure } from '../../../runtime/import/import-error.js';
import { parseRecords } from '../../../runtime/import/json-records.js';
import { SecretScrubber } from '../../../runtime/import/secrets.js';
import { firstInvalidUtf8 } from '../../../runtime/import/source-text.js';
import { offsetOfPath } from '../../../runtime/json/json-locate.js';
import type { CallRecord, RunResult } from '../../../runtime/protocol/run-result.js';
import { EXAMPLES, FIXTURES } from './import-helpers.js';

const sandbox: RunResult['sandbox'] = {
  network: 'denied',
  filesystem: 'denied',
  childProcess: 'denied',
  enforcement: 'full',
  mechanisms: [],
};
const call = (id: number, name: string, args: unknown, answer: { value?: unknown; message?: string }): CallRecord => ({
  id,
  global: 'tools',
  name,
  args: args as never,
  ok: answer.message === undefined,
  ...(answer.message === undefined ? { value: answer.value as never } : { message: answer.message }),
  startedAtMs: 0,
  durationMs: 0,
});
const now = (patch: Partial<RunResult>): RunResult => ({
  language: 'typescript',
  logs: [],
  calls: [],
  sandbox,
  durationMs: 1,
  ...patch,
});

describe('compareWithTranscript', () => {
  const then: ThenRecord = {
    compare: 'result',
    logs: ['a'],
    value: { n: 1 },
    calls: [
      { global: 'tools', name: 'f', args: { x: 1 }, ok: true, value: 1 },
      { global: 'tools', name: 'f', args: { x: 2 }, ok: false, message: 'boom' },
    ],
  };

  test('calls match by name and arguments whatever their order', () => {
    const result = now({
      logs: ['a'],
      value: { n: 1 },
      calls: [call(2, 'f', { x: 2 }, { message: 'boom' }), call(1, 'f', { x: 1 }, { value: 1 })],
    });
    expect(compareWithTranscript(then, result)).toEqual({ agrees: true, differences: [] });
  });

  test('a missing call, an extra call, a different answer, different output, value and outcome', () => {
    const result = now({
      logs: ['b'],
      value: { n: 2 },
      error: { kind: 'exception', message: 'x' },
      calls: [call(1, 'f', { x: 1 }, { value: 9 }), call(2, 'g', {}, { value: null })],
    });
    expect(compareWithTranscript(then, result).differences).toEqual([
      'tools.f({"x":1}) answered differently',
      'call 2 of the transcript, tools.f({"x":2}), was not made',
      'tools.g({}) was called now but not in the transcript',
      'printed output differs at line 1: "a" then, "b" now',
      'the return value differs: {"n":1} then, {"n":2} now',
      'the outcome differs: success then, exception now',
    ]);
  });

  test('stdout mode ignores stderr lines and compares failing against failing', () => {
    const stdout: ThenRecord = {
      compare: 'stdout',
      logs: ['x'],
      modelText: 'x\n',
      error: { kind: 'exception', message: 'Traceback …' },
      calls: [],
    };
    expect(
      compareWithTranscript(
        stdout,
        now({ logs: ['x', 'warn'], stderrLogs: [1], error: { kind: 'exception', message: 'other' } }),
      ).agrees,
    ).toBe(true);
    expect(compareWithTranscript(stdout, now({ logs: ['x'] })).differences).toEqual([
      'the program failed then but succeeded now',
    ]);
  });

  test('model-text mode renders the run the way the harness does', () => {
    const text: ThenRecord = {
      compare: 'model-text',
      logs: [],
      modelText: 'one\n{\n  "a": [\n    1\n  ]\n}',
      calls: [],
    };
    expect(compareWithTranscript(text, now({ logs: ['one'], value: { a: [1] } })).agrees).toBe(true);
    expect(compareWithTranscript(text, now({ logs: ['one'] })).differences).toEqual([
      'run_code text differs at line 2: "{" then, (nothing) now',
    ]);
  });

  test('a run that kept only some calls one by one (a bounded call log) is compared by count beyond them', () => {
    const many: ThenRecord = {
      compare: 'result',
      logs: [],
      calls: [0, 1, 2, 3, 4].map((i) => ({ global: 'tools', name: 'f', args: { i }, ok: true, value: i })),
    };
    const result = now({ calls: [call(1, 'f', { i: 0 }, { value: 0 }), call(2, 'f', { i: 1 }, { value: 1 })] });
    const summary = { total: 5, omitted: 2, byBinding: [], last: [call(5, 'f', { i: 4 }, { value: 4 })] };
    Object.assign(result, { callSummary: summary });
    expect(compareWithTranscript(many, result)).toEqual({
      agrees: true,
      differences: [],
      skipped: 'the run kept 3 of its 5 calls one by one, so the others were compared by count',
    });
    summary.total = 6;
    expect(compareWithTranscript(many, result).differences).toEqual(['the program made 5 calls then but 6 now']);
  });

  test('what could not be compared is said', () => {
    const skipped: ThenRecord = {
      compare: 'stdout',
      logs: [],
      modelText: '',
      skipped: 'stdout is encrypted',
      calls: [],
    };
    expect(compareWithTranscript(skipped, now({ logs: ['anything'] }))).toEqual({
      agrees: true,
      differences: [],
      skipped: 'stdout is encrypted',
    });
  });
});

describe('format detection', () => {
  const detect = (file: string) => {
    const records = parseRecords({ label: file, text: fs.readFileSync(file, 'utf8') });
    return detectFormat(apiDocuments(records, new SecretScrubber()), file);
  };

  test.each([
    [path.join(EXAMPLES, 'anthropic-sales.json'), 'anthropic'],
    [path.join(EXAMPLES, 'openai-inventory.jsonl'), 'openai'],
    [path.join(EXAMPLES, 'deepseek-session.jsonl'), 'deepseek'],
    [path.join(EXAMPLES, 'ptc-trace-cities.jsonl'), 'ptc-trace'],
    [path.join(FIXTURES, 'anthropic-log.jsonl'), 'anthropic'],
    [path.join(FIXTURES, 'anthropic-orphan.json'), 'anthropic'],
    [path.join(FIXTURES, 'openai-array.json'), 'openai'],
    [path.join(FIXTURES, 'deepseek-legacy.jsonl'), 'deepseek'],
    [path.join(FIXTURES, 'ptc-trace-multi.jsonl'), 'ptc-trace'],
  ])('%s is %s', (file, format) => {
    expect(detect(file)).toBe(format);
  });

  test('an even split is not guessed', () => {
    const text = JSON.stringify([
      { type: 'function_call' },
      { type: 'tool_use' },
      { role: 'user', content: [{ type: 'tool_result' }] },
    ]);
    expect(() => detectFormat(apiDocuments(parseRecords({ label: 'x', text }), new SecretScrubber()), 'x')).toThrow(
      ImportFailure,
    );
  });
});

describe('UTF-8 validation', () => {
  test.each([
    ['ascii and a 4-byte emoji', [0x61, 0xf0, 0x9f, 0x98, 0x80, 0x62], -1],
    ['an overlong slash', [0x61, 0xc0, 0xaf], 1],
    ['an encoded surrogate', [0xed, 0xa0, 0x80], 0],
    ['past U+10FFFF', [0xf4, 0x90, 0x80, 0x80], 0],
    ['a sequence cut at the end', [0x61, 0xe2, 0x82], 1],
    ['a stray continuation byte', [0x80], 0],
  ])('%s', (_, bytes, offset) => {
    expect(firstInvalidUtf8(Uint8Array.from(bytes))).toBe(offset);
  });
});

describe('traces of runs with a bounded call log', () => {
  test('list the kept calls and say how many were only counted; the import marks the program', async () => {
    const result = now({ calls: [call(1, 'f', {}, { value: 1 })], value: 1 });
    Object.assign(result, {
      callSummary: { total: 4, omitted: 2, byBinding: [], last: [call(4, 'f', { last: true }, { value: 4 })] },
    });
    const lines = runTraceLines({ program: 'return 1', language: 'typescript', result });
    const records = lines.map((l) => JSON.parse(l) as { type: string; id?: number; callsOmitted?: number });
    expect(records.filter((r) => r.type === 'call').map((r) => r.id)).toEqual([1, 4]);
    expect(records.at(-1)).toMatchObject({ type: 'result', callsOmitted: 2 });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-bounded-trace-'));
    try {
      const file = path.join(dir, 'bounded.jsonl');
      fs.writeFileSync(file, `${lines.join('\n')}\n`);
      const outcome = await planImport({ files: [file], out: path.join(dir, 'b.ptcnb') });
      if (!outcome.ok) throw new Error(outcome.message);
      expect(outcome.plan.cells[0]?.unreproducible).toEqual([
        "the trace lists 2 of the program's 4 calls (the rest were only counted); a replay cannot answer the missing ones",
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('locating a field in JSON text', () => {
  const text = '{"a": [1, {"b\\"]": "x}]", "c": [[], {"d": null}]}], "e": {"f": 2}}';
  test.each([
    [[], '{"a"'],
    [['a'], '[1,'],
    [['a', 1], '{"b'],
    [['a', 1, 'c'], '[[]'],
    [['a', 1, 'c', 1, 'd'], 'null'],
    [['e', 'f'], '2}'],
    // absent fields point at their deepest existing ancestor
    [['a', 1, 'zz'], '{"b'],
    [['a', 7], '[1,'],
    [['nope', 'x'], '{"a"'],
  ] as const)('%j starts at %j', (path, marker) => {
    expect(offsetOfPath(text, path).offset).toBe(text.indexOf(marker));
  });

  test('bounded memory on a wide document: finds the last element of a 200 000-element array', () => {
    const wide = `[${Array.from({ length: 200_000 }, (_, i) => `{"k":${i}}`).join(',')}]`;
    expect(offsetOfPath(wide, [199_999, 'k']).offset).toBe(wide.lastIndexOf(':') + 1);
  });
});
