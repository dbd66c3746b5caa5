// Output types learned from recordings: the inference itself, and `ptc sdk --learn-from` as a real process.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { learnOutputs } from '../../../runtime/index.js';
import { inferSchema } from '../../../runtime/sdk/learn-schema.js';

const exec = promisify(execFile);
const CLI = path.resolve('dist/cli.mjs');

describe('inferSchema', () => {
  it('unions the shapes seen; keys missing from some samples are optional; integers stay integers only when all are', () => {
    expect(
      inferSchema([
        { id: 1, name: 'a', tags: ['x'] },
        { id: 2, tags: [], extra: null },
      ]),
    ).toEqual({
      type: 'object',
      properties: {
        extra: { type: 'null' },
        id: { type: 'integer' },
        name: { type: 'string' },
        tags: { type: 'array', items: { type: 'string' } },
      },
      required: ['id', 'tags'],
    });
    expect(inferSchema([1, 2.5])).toEqual({ type: 'number' });
    expect(inferSchema(['a', 1, null])).toEqual({ type: ['string', 'integer', 'null'] });
    expect(inferSchema([{ a: 1 }, 'x'])).toEqual({
      anyOf: [{ type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] }, { type: 'string' }],
    });
  });

  it('a string format only when every sample agrees', () => {
    expect(inferSchema(['2026-01-01T12:00:00.000Z', '2026-02-01T00:00:00Z'])).toEqual({
      type: 'string',
      format: 'date-time',
    });
    expect(inferSchema(['2026-01-01T12:00:00.000Z', 'yesterday'])).toEqual({ type: 'string' });
    expect(inferSchema(['00000000-0000-4000-8000-000000000000'])).toEqual({ type: 'string', format: 'uuid' });
  });

  it('learnOutputs counts answered calls only', () => {
    const learned = learnOutputs([
      {
        version: 1,
        calls: [
          { global: 't', name: 'f', args: null, ok: true, value: 1, durationMs: 1 },
          { global: 't', name: 'f', args: null, ok: false, message: 'x', durationMs: 1 },
        ],
      },
    ]);
    expect(learned.get('t.f')).toEqual({ schema: { type: 'integer' }, calls: 1 });
  });
});

describe('ptc sdk --learn-from', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-learn-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.writeFileSync(
    path.join(dir, 'b.bindings.mjs'),
    `export default { tools: { functions: {
      search: { description: 'Search.', mock: async () => [] },
      count: { output: { type: 'integer' }, mock: async () => 1 },
    } } };\n`,
  );
  fs.mkdirSync(path.join(dir, 'cassettes'));
  fs.writeFileSync(
    path.join(dir, 'cassettes', 'a.json'),
    JSON.stringify({
      version: 1,
      calls: [
        {
          global: 'tools',
          name: 'search',
          args: { q: 'a' },
          ok: true,
          value: [{ title: 'A', score: 0.5 }],
          durationMs: 1,
        },
        {
          global: 'tools',
          name: 'search',
          args: { q: 'b' },
          ok: true,
          value: [{ title: 'B', score: 1, url: 'https://b.example/x' }],
          durationMs: 1,
        },
        { global: 'tools', name: 'count', args: null, ok: true, value: 'not an integer', durationMs: 1 },
      ],
    }),
  );

  it('types a tool without a declared output from its recorded answers, marked as inferred, and leaves declared ones alone', async () => {
    const { stdout } = await exec(process.execPath, [
      CLI,
      'sdk',
      '--bindings',
      path.join(dir, 'b.bindings.mjs'),
      '--learn-from',
      path.join(dir, 'cassettes'),
    ]);
    expect(stdout).toContain('Result type inferred from 2 recorded calls (not declared by the tool).');
    // learned objects stay open (other keys may come): `url` was missing once, so it is optional
    expect(stdout).toMatch(
      /search\(args\?: JsonValue\): Promise<\(\{\n\s+score: number;\n\s+title: string;\n\s+url\?: string;\n\s+\} & \{ \[key: string\]: JsonValue \}\)\[\]>;/,
    );
    expect(stdout).toMatch(/count\(args\?: JsonValue\): Promise<number>;/);
    const python = await exec(process.execPath, [
      CLI,
      'sdk',
      '--bindings',
      path.join(dir, 'b.bindings.mjs'),
      '--language',
      'python',
      '--learn-from',
      path.join(dir, 'cassettes', 'a.json'),
    ]);
    expect(python.stdout).toContain('Result type inferred from 2 recorded calls');
    const without = await exec(process.execPath, [CLI, 'sdk', '--bindings', path.join(dir, 'b.bindings.mjs')]);
    expect(without.stdout).not.toContain('inferred');
  });

  it('a missing cassette is misuse (exit 2)', async () => {
    const run = await exec(process.execPath, [
      CLI,
      'sdk',
      '--bindings',
      path.join(dir, 'b.bindings.mjs'),
      '--learn-from',
      path.join(dir, 'nope'),
    ]).catch((e: { code: number; stderr: string }) => e);
    expect('code' in run ? run.code : 0).toBe(2);
    expect('stderr' in run ? run.stderr : '').toContain('no such cassette file or folder');
  });
});
