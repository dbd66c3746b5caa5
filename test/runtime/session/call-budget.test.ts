// The per-run call budget (issue 29): `maxCalls` ends a run that asks for one call more as `call-limit`, naming the
// number, in both languages, whether the calls go to a bindings host (a session) or to in-process handlers; live
// handlers get a low budget by default, mock handlers none.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import {
  createSession,
  LIMITS,
  RunResultSchema,
  type Language,
  type RunPlan,
  type Session,
} from '../../../runtime/index.js';
import { run, sharedRuntime } from '../../helpers/runtime.js';

const BINDINGS = `export default {
  tools: {
    functions: {
      search: { mock: async ({ q }) => ({ q, hits: 1 }), live: async ({ q }) => ({ q, hits: 2 }) },
    },
  },
};
`;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-call-budget-'));
const bindingsPath = path.join(dir, 'budget.bindings.mjs');
fs.writeFileSync(bindingsPath, BINDINGS);
const session: Session = createSession({ runtimeFor: sharedRuntime, bindingsPath });
afterAll(async () => {
  await session.dispose();
  fs.rmSync(dir, { recursive: true, force: true });
});

// An endless loop of calls (it never returns on its own), and one that makes exactly `n` calls then returns n.
const loops: Record<Language, string> = {
  typescript: 'let n = 0;\nwhile (true) { await tools.search({ q: `page ${n}` }); n += 1; }',
  python: "n = 0\nwhile True:\n    await tools.search({'q': f'page {n}'})\n    n += 1",
};
const exactly = (language: Language, n: number): string =>
  language === 'typescript'
    ? `for (let i = 0; i < ${n}; i++) await tools.search({ q: String(i) });\nreturn ${n};`
    : `for i in range(${n}):\n    await tools.search({'q': str(i)})\nreturn ${n}`;

async function runInSession(language: Language, program: string, plan: RunPlan, maxCalls?: number) {
  const outcome = await session.run({
    language,
    program,
    plan,
    limits: { timeoutMs: 60_000, ...(maxCalls === undefined ? {} : { maxCalls }) },
  });
  if (outcome.kind !== 'result') throw new Error(`setup failed: ${outcome.message}`);
  RunResultSchema.parse(outcome.result);
  return outcome.result;
}

describe.each(['typescript', 'python'] as const)('call budget (%s)', (language) => {
  test('a run that asks for call maxCalls + 1 ends as call-limit naming the number, with every allowed call made', async () => {
    const result = await runInSession(language, loops[language], { mode: 'mock' }, 25);
    expect(result.error?.kind).toBe('call-limit');
    expect(result.error?.message).toMatch(/more than 25 binding calls \(maxCalls 25\)/);
    expect(result.callSummary?.total ?? result.calls.length).toBe(25);
    expect(result.calls.every((c) => c.ok)).toBe(true);
  });

  test('exactly maxCalls calls is within the budget', async () => {
    const result = await runInSession(language, exactly(language, 25), { mode: 'mock' }, 25);
    expect(result.error).toBeUndefined();
    expect(result.value).toBe(25);
  });

  test('live handlers get a low budget by default; mock handlers none', async () => {
    const live = await runInSession(language, loops[language], { mode: 'live' });
    expect(live.error?.kind).toBe('call-limit');
    expect(live.error?.message).toContain(`maxCalls ${LIMITS.maxCalls.live}`);
    const mock = await runInSession(language, exactly(language, LIMITS.maxCalls.live + 50), { mode: 'mock' });
    expect(mock.error).toBeUndefined();
    expect(mock.value).toBe(LIMITS.maxCalls.live + 50);
  });

  test('in-process handlers (no bindings host) keep the same budget', async () => {
    const result = await run(language, loops[language], {
      maxCalls: 3,
      timeoutMs: 60_000,
      bindings: [{ global: 'tools', functions: { search: async () => ({ hits: 0 }) } }],
    });
    expect(result.error).toMatchObject({ kind: 'call-limit', message: expect.stringContaining('maxCalls 3') });
    expect(result.calls).toHaveLength(3);
  });
});

test('maxCalls must be a positive integer', () => {
  const runtime = sharedRuntime();
  expect(() => runtime.resolve({ language: 'typescript', program: 'return 1', maxCalls: 0 })).toThrow(/maxCalls/);
  expect(() => runtime.resolve({ language: 'typescript', program: 'return 1', maxCalls: 1.5 })).toThrow(/maxCalls/);
});
