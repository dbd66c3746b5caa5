// How ptc eval reads tasks and judges answers (the predicate check runs through a real sandboxed session).
import { afterAll, describe, expect, it } from 'vitest';
import { createSession, parseTasks, type EvalModel } from '../../../runtime/index.js';
import { checkAnswer, jsonIn, subsetMiss } from '../../../runtime/eval/checks.js';
import { plannedRuns } from '../../../runtime/eval/run-eval.js';
import { type EvalTask } from '../../../runtime/eval/tasks.js';

const session = createSession();
afterAll(() => session.dispose());

describe('answer checks', () => {
  it('exact trims, contains ignores case', async () => {
    expect(await checkAnswer({ exact: '42' }, ' 42\n', session)).toEqual({ pass: true });
    expect(await checkAnswer({ exact: '42' }, '42.', session)).toEqual({
      pass: false,
      message: 'expected exactly "42"',
    });
    expect(await checkAnswer({ contains: 'berlin' }, 'It is Berlin.', session)).toEqual({ pass: true });
  });

  it('finds JSON in the whole answer, a fenced block or the first braces, and checks a subset', () => {
    expect(jsonIn('{"a": 1}')).toEqual({ a: 1 });
    expect(jsonIn('Here:\n```json\n[1, 2]\n```\nDone.')).toEqual([1, 2]);
    expect(jsonIn('The answer is {"bigger": "Berlin"} as asked.')).toEqual({ bigger: 'Berlin' });
    expect(jsonIn('no json here')).toBeUndefined();
    expect(
      subsetMiss({ a: 1, b: { c: [1, { d: 2 }] } }, { a: 1, x: 0, b: { c: [1, { d: 2, e: 3 }] } }, '$'),
    ).toBeUndefined();
    expect(subsetMiss({ b: { c: [1, { d: 2 }] } }, { b: { c: [1, { d: 3 }] } }, '$')).toBe('$.b.c[1].d');
    expect(subsetMiss({ a: [1] }, { a: [1, 2] }, '$')).toBe('$.a');
    expect(subsetMiss({ a: 1 }, { b: 1 }, '$')).toBe('$.a');
  });

  it('a predicate runs in the sandbox: true passes, anything else fails with the reason', async () => {
    expect(await checkAnswer({ predicate: '(a) => a.startsWith("FR")' }, 'FR', session)).toEqual({ pass: true });
    expect(await checkAnswer({ predicate: '(a) => a.length' }, 'FR', session)).toEqual({
      pass: false,
      message: 'the predicate returned false',
    });
    // the sandbox has no network: a predicate cannot phone home
    const out = await checkAnswer({ predicate: 'async () => (await fetch("http://127.0.0.1:9")).ok' }, 'x', session);
    expect(out).toMatchObject({ pass: false, message: expect.stringContaining('the predicate failed') });
  });
});

describe('tasks file', () => {
  it('reads tasks, skipping blank and // lines', () => {
    const parsed = parseTasks('// comment\n\n{"id":"a","task":"t","check":{"exact":"1"}}\n', 'tasks.jsonl');
    expect(parsed).toEqual({ ok: true, tasks: [{ id: 'a', task: 't', check: { exact: '1' } }] });
  });

  it.each([
    ['{"id":"a","task":"t"}', 'tasks.jsonl:1: "check"'],
    ['{"id":"a b","task":"t","check":{"exact":"1"}}', 'tasks.jsonl:1: "id"'],
    ['{"id":"a","task":"t","check":{"exact":"1"},"extra":1}', 'tasks.jsonl:1:'],
    [
      '{"id":"a","task":"t","check":{"exact":"1"}}\n{"id":"a","task":"u","check":{"exact":"1"}}',
      'tasks.jsonl:2: a second task with id "a"',
    ],
    ['not json', 'tasks.jsonl:1: not a JSON object'],
    ['', 'tasks.jsonl has no tasks'],
  ])('refuses %j naming where', (text, message) => {
    const parsed = parseTasks(text, 'tasks.jsonl');
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.message).toContain(message);
  });

  it('plans task × model × mode × sample in order, and shards keep every n-th', () => {
    const tasks = [{ id: 'a' }, { id: 'b' }] as EvalTask[];
    const models = [{ label: 'm1' }, { label: 'm2' }] as EvalModel[];
    const all = plannedRuns({ tasks, models, modes: ['code', 'direct'], samples: 2 });
    expect(all).toHaveLength(16);
    expect(all.slice(0, 3).map((r) => `${r.task.id}/${r.model.label}/${r.mode}/${r.sample}`)).toEqual([
      'a/m1/code/1',
      'a/m1/code/2',
      'a/m1/direct/1',
    ]);
    const shards = [1, 2, 3].map((index) =>
      plannedRuns({ tasks, models, modes: ['code', 'direct'], samples: 2, shard: { index, count: 3 } }),
    );
    expect(shards.map((s) => s.length)).toEqual([6, 5, 5]);
    expect(new Set(shards.flat()).size).toBe(16);
  });
});
