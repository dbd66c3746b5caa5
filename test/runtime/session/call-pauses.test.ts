import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  cellRunRequest,
  createSession,
  RunResultSchema,
  type Session,
  type SessionOutcome,
} from '../../../runtime/index.js';
import { NotebookMetadataSchema } from '../../../runtime/notebook/schema.js';
import type { CallDecision, PausedCall } from '../../../runtime/protocol/call-pause.js';
import type { PauseControl, PauseRequest } from '../../../runtime/session/run-pauses.js';
import type { RunPlan, SessionRunRequest } from '../../../runtime/session/session-types.js';
import type { EngineChoice, Language, RunResult } from '../../../runtime/index.js';
import { saveCassette, cassetteFromResult } from '../../../runtime/replay/index.js';
import { sharedRuntime } from '../../helpers/runtime.js';

// Breakpoints, approvals and forks on real children and a real bindings host: the program sees only a call that
// takes longer, then resolves or rejects.
const BINDINGS = `let served = 0;
export default {
  tools: {
    errorClass: { name: 'ToolError', memberNameProperty: 'tool' },
    functions: {
      search: {
        input: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
        output: { type: 'object', properties: { hits: { type: 'integer' } }, required: ['hits'] },
        mock: async ({ q }) => ({ hits: q.length, served: ++served }),
      },
      send: { approval: true, mock: async (args) => ({ sent: args }) },
      wipe: { approval: 'deny', mock: async () => 'wiped' },
    },
  },
};
`;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-pauses-'));
const bindingsPath = path.join(dir, 'tools.bindings.mjs');
fs.writeFileSync(bindingsPath, BINDINGS);
let session: Session | undefined;
const sessionOf = (): Session => (session ??= createSession({ runtimeFor: sharedRuntime, bindingsPath }));
// the module loads once, ahead of runs whose deadlines are short
beforeAll(async () => {
  expect((await sessionOf().describe({ timeoutMs: 60_000 })).ok).toBe(true);
}, 90_000);
afterAll(async () => {
  await session?.dispose();
  fs.rmSync(dir, { recursive: true, force: true });
});

const PROGRAMS: Record<Language, string> = {
  typescript: `const a = await tools.search({ q: 'abc' });
let caught = null;
try { await tools.search({ q: 'boom' }); } catch (e) { caught = e.name + ': ' + e.message; }
return { a, caught };`,
  python: `a = await tools.search({"q": "abc"})
caught = None
try:
    await tools.search({"q": "boom"})
except Exception as e:
    caught = type(e).__name__ + ": " + str(e)
return {"a": a, "caught": caught}`,
};

async function run(
  language: Language,
  program: string,
  pauses: PauseRequest,
  extra: Partial<SessionRunRequest> & { engine?: EngineChoice; plan?: RunPlan } = {},
): Promise<RunResult> {
  const { engine, plan, ...rest } = extra;
  const outcome: SessionOutcome = await sessionOf().run({
    language,
    program,
    plan: plan ?? { mode: 'mock' },
    limits: { timeoutMs: 20_000, ...(engine === undefined ? {} : { engine }) },
    pauses,
    ...rest,
  });
  if (outcome.kind !== 'result') throw new Error(`setup failed: ${outcome.message}`);
  RunResultSchema.parse(outcome.result);
  return outcome.result;
}

const engines: { language: Language; engine: EngineChoice }[] = [
  { language: 'typescript', engine: 'native' },
  { language: 'python', engine: 'native' },
  { language: 'typescript', engine: 'wasm' },
  { language: 'python', engine: 'wasm' },
];

describe.each(engines)('breakpoints: $language on $engine', ({ language, engine }) => {
  test('answer with an edited value, throw into the catch, continue', async () => {
    const seen: PausedCall[] = [];
    const result = await run(
      language,
      PROGRAMS[language],
      {
        breakpoints: { bindings: ['tools.search'] },
        onPause: (call): Promise<CallDecision> => {
          seen.push(call);
          return Promise.resolve(
            call.id === 1 ? { kind: 'answer', value: { hits: 42 } } : { kind: 'throw', message: 'no such page' },
          );
        },
      },
      { engine },
    );
    expect(result.error).toBeUndefined();
    expect(result.value).toEqual({ a: { hits: 42 }, caught: expect.stringMatching(/ToolError: .*no such page/) });
    expect(seen.map((c) => [c.id, c.reason, c.args])).toEqual([
      [1, 'breakpoint', { q: 'abc' }],
      [2, 'breakpoint', { q: 'boom' }],
    ]);
    expect(result.calls.map((c) => [c.ok, c.pause?.decision, c.pause?.by])).toEqual([
      [true, 'answer', 'user'],
      [false, 'throw', 'user'],
    ]);
    expect(result.pausedMs).toBeGreaterThanOrEqual(0);
  });
});

describe('breakpoints', () => {
  test.each(engines)(
    'the deadline does not count a pause; the result says how long it was ($language on $engine)',
    async ({ language, engine }) => {
      const result = await run(
        language,
        // work after the pause: an engine that kept its own deadline running would stop it there
        language === 'typescript'
          ? `const r = await tools.search({ q: 'x' }); let s = 0; for (let i = 0; i < 300000; i++) s += i; return r;`
          : `r = await tools.search({"q": "x"})\ns = 0\nfor i in range(300000):\n    s += i\nreturn r`,
        {
          breakpoints: { every: true },
          onPause: () => new Promise((resolve) => setTimeout(() => resolve({ kind: 'continue' }), 2_500)),
        },
        { limits: { timeoutMs: 1_500, engine } },
      );
      expect(result.error).toBeUndefined();
      expect(result.value).toMatchObject({ hits: 1 });
      expect(result.pausedMs).toBeGreaterThanOrEqual(2_400);
      expect(result.calls[0]?.pause).toMatchObject({ reason: 'breakpoint', decision: 'continue', by: 'user' });
    },
  );

  test('a replay breaks too (calls the runtime serves itself); its recorded approvals are not asked again', async () => {
    const recorded = await run(
      'typescript',
      `return [await tools.send({ to: 'a' }), await tools.search({ q: 'xy' })];`,
      {
        onPause: () => Promise.resolve({ kind: 'continue' }),
      },
    );
    expect(recorded.calls[0]?.pause).toMatchObject({ reason: 'approval', by: 'user' });
    const file = path.join(dir, 'approved.json');
    await saveCassette(file, cassetteFromResult(recorded));
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).calls[0].pause).toMatchObject({ reason: 'approval', by: 'user' });
    const asked: string[] = [];
    const replayed = await run(
      'typescript',
      `return [await tools.send({ to: 'a' }), await tools.search({ q: 'xy' })];`,
      {
        breakpoints: { bindings: ['tools.search'] },
        onPause: (call) => {
          asked.push(`${call.name}:${call.reason}`);
          return Promise.resolve({ kind: 'answer', value: { hits: 9 } });
        },
      },
      { plan: { mode: 'replay', cassettePath: file } },
    );
    expect(asked).toEqual(['search:breakpoint']);
    expect(replayed.value).toEqual([{ sent: { to: 'a' } }, { hits: 9 }]);
  });

  test('a condition over the arguments breaks only matching calls; step breaks on the next', async () => {
    const seen: number[] = [];
    const result = await run(
      'typescript',
      `const out = [];
for (const q of ['a', 'bb', 'ccc', 'dddd']) out.push((await tools.search({ q })).hits);
return out;`,
      {
        breakpoints: { conditions: [{ binding: 'tools.search', path: '$.q', equals: 'bb' }] },
        onPause: (call) => {
          seen.push(call.id);
          return Promise.resolve(call.id === 2 ? { kind: 'continue', step: true } : { kind: 'continue' });
        },
      },
    );
    expect(result.value).toEqual([1, 2, 3, 4]);
    expect(seen).toEqual([2, 3]);
  });

  test('an answer that breaks the output schema is refused and asked again with the problem', async () => {
    const problems: (string | undefined)[] = [];
    const result = await run('typescript', `return await tools.search({ q: 'x' });`, {
      breakpoints: { every: true },
      onPause: (_call, control: PauseControl) => {
        problems.push(control.problem);
        return Promise.resolve(
          problems.length === 1 ? { kind: 'answer', value: { hits: 'many' } } : { kind: 'answer', value: { hits: 7 } },
        );
      },
    });
    expect(result.value).toEqual({ hits: 7 });
    expect(problems[0]).toBeUndefined();
    expect(problems[1]).toMatch(/does not match the output schema of tools\.search: \$\.hits: must be integer/);
  });

  test('Stop ends a paused run; another run goes on meanwhile (no lock held)', async () => {
    const controller = new AbortController();
    let paused: () => void = () => undefined;
    const isPaused = new Promise<void>((resolve) => (paused = resolve));
    const stopped = run(
      'typescript',
      `await tools.search({ q: 'x' }); return 'never';`,
      {
        breakpoints: { every: true },
        onPause: (_call, control) => {
          paused();
          return new Promise((_, reject) => control.signal.addEventListener('abort', () => reject(new Error('x'))));
        },
      },
      { signal: controller.signal },
    );
    await isPaused;
    const other = await run('typescript', `return (await tools.search({ q: 'abcd' })).hits;`, {});
    expect(other.value).toBe(4);
    controller.abort();
    const result = await stopped;
    expect(result.error?.kind).toBe('abort');
    expect(result.calls[0]?.ok).toBe(false);
  });
});

describe.each(engines)('approvals: $language on $engine', ({ language, engine }) => {
  const program =
    language === 'typescript'
      ? `const out = [];
for (const f of ['send', 'wipe']) {
  try { out.push(await tools[f]({ to: 'x' })); } catch (e) { out.push(e.name + ': ' + e.message); }
}
return out;`
      : `out = []
for f in ["send", "wipe"]:
    try:
        out.append(await getattr(tools, f)({"to": "x"}))
    except Exception as e:
        out.append(type(e).__name__ + ": " + str(e))
return out`;

  test('ask: a person edits the arguments; deny: refused without asking', async () => {
    const asked: string[] = [];
    const result = await run(
      language,
      program,
      {
        onPause: (call) => {
          asked.push(`${call.name}:${call.reason}`);
          return Promise.resolve({ kind: 'continue', args: { to: 'edited' } });
        },
      },
      { engine },
    );
    expect(asked).toEqual(['send:approval']);
    expect(result.value).toEqual([
      { sent: { to: 'edited' } },
      expect.stringMatching(/ToolError: .*tools\.wipe was denied \(approval policy: deny\)/),
    ]);
    expect(result.calls[0]?.pause).toMatchObject({ reason: 'approval', by: 'user', args: { to: 'edited' } });
    expect(result.calls[1]?.pause).toMatchObject({ reason: 'approval', decision: 'throw', by: 'policy' });
  });

  test('no one to ask: denied; an override allows', async () => {
    const denied = await run(language, program, {}, { engine });
    expect(denied.value).toEqual([
      expect.stringMatching(/needs approval and nobody can give it here: denied/),
      expect.stringMatching(/was denied/),
    ]);
    const allowed = await run(
      language,
      program,
      { approvals: { 'tools.send': 'allow', 'tools.wipe': 'allow' } },
      { engine },
    );
    expect(allowed.value).toEqual([{ sent: { to: 'x' } }, 'wiped']);
  });
});

describe('fork from call N', () => {
  const program = `const out = [];
for (const q of ['a', 'bb', 'ccc']) out.push((await tools.search({ q })).hits);
return out;`;

  const programs: Record<Language, string> = {
    typescript: program,
    python: `out = []
for q in ["a", "bb", "ccc"]:
    out.append((await tools.search({"q": q}))["hits"])
return out`,
  };

  test.each(engines)(
    'calls before N from the recording, N edited, the rest by the handlers or the replay ($language on $engine)',
    async ({ language, engine }) => {
      const source = programs[language];
      const original = await run(language, source, {}, { engine });
      expect(original.value).toEqual([1, 2, 3]);
      const calls = cassetteFromResult(original).calls;
      // handlers after the fork
      const forked = await run(
        language,
        source,
        { fork: { calls, at: 2, answer: { ok: true, value: { hits: 20 } } } },
        { engine },
      );
      expect(forked.value).toEqual([1, 20, 3]);
      expect(forked.calls.map((c) => c.pause?.by)).toEqual(['recording', 'edit', undefined]);
      // a replay after the fork
      const file = path.join(dir, `fork-${language}-${engine}.json`);
      await saveCassette(file, cassetteFromResult(original));
      const replayed = await run(
        language,
        source,
        { fork: { calls, at: 2, answer: { ok: false, message: 'down' } } },
        { engine, plan: { mode: 'replay', cassettePath: file } },
      );
      expect(replayed.error?.message).toMatch(/down/);
      expect(replayed.calls.map((c) => c.pause?.by)).toEqual(['recording', 'edit']);
    },
  );

  test('out of range and a schema-breaking edit are refused before anything runs', async () => {
    const calls = [{ global: 'tools', name: 'search', args: { q: 'a' }, ok: true, value: { hits: 1 }, durationMs: 1 }];
    const far = await sessionOf().run({
      language: 'typescript',
      program,
      plan: { mode: 'mock' },
      pauses: { fork: { calls, at: 3, answer: { ok: true, value: 1 } } },
    });
    expect(far).toMatchObject({
      kind: 'setup-failed',
      message: 'cannot fork at call 3: the recording has calls 1 to 1',
    });
    const bad = await sessionOf().run({
      language: 'typescript',
      program,
      plan: { mode: 'mock' },
      pauses: { fork: { calls, at: 1, answer: { ok: true, value: { hits: 'x' } } } },
    });
    expect(bad).toMatchObject({
      kind: 'setup-failed',
      message: expect.stringMatching(/does not match its output schema/),
    });
  });
});

describe('notebook metadata', () => {
  test("a notebook's approvals apply over the module's; the parsed file keeps them", async () => {
    const parsed = NotebookMetadataSchema.safeParse({ approvals: { 'tools.search': 'deny', 'tools.send': 'allow' } });
    expect(parsed.success).toBe(true);
    expect(NotebookMetadataSchema.safeParse({ approvals: { search: 'deny' } }).success).toBe(false);
    const request = cellRunRequest({
      language: 'typescript',
      program: `const out = [];
for (const f of ['search', 'send']) {
  try { out.push(await tools[f]({ q: 'x' })); } catch (e) { out.push(e.message); }
}
return out;`,
      cellIndex: 0,
      cell: undefined,
      notebook: parsed.data,
      notebookDir: dir,
      notebookFile: 'approvals.ptcnb',
      defaultMode: 'mock',
    });
    const outcome = await sessionOf().run(request);
    expect(outcome.kind === 'result' && outcome.result.value).toEqual([
      expect.stringMatching(/tools\.search was denied \(approval policy: deny\)/),
      { sent: { q: 'x' } },
    ]);
  });
});
