import { describe, expect, test } from 'vitest';
import { createRuntime } from '../../../runtime/index.js';
import {
  identifierProblem,
  memberPropertyProblem,
  PORTABLE_RESERVED_WORDS,
} from '../../../runtime/contract/identifiers.js';
import type { BindingNamespace, CodeRunRequest } from '../../../runtime/api.js';

const runtime = createRuntime();
const resolve = (extra: Partial<CodeRunRequest>) =>
  runtime.resolve({ language: 'typescript', program: 'return 1', ...extra });
const ns = (global: string, errorClass?: BindingNamespace['errorClass']): BindingNamespace => ({
  global,
  functions: { f: async () => 1 },
  ...(errorClass ? { errorClass } : {}),
});

describe('resolve', () => {
  test('applies the documented defaults', () => {
    const spec = resolve({});
    expect(spec).toMatchObject({
      timeoutMs: 120_000,
      maxOutputBytes: 67_108_864,
      memoryMb: 512,
      sandbox: 'best-effort',
      maxPendingCalls: 128,
      bindings: [],
    });
    expect(spec.cwd).toBe(process.cwd());
  });

  test('caps timeoutMs at 600 000', () => {
    expect(resolve({ timeoutMs: 900_000 }).timeoutMs).toBe(600_000);
  });

  test.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY, 1.5])(
    'rejects timeoutMs %s with a TypeError naming the option',
    (timeoutMs) => {
      expect(() => resolve({ timeoutMs })).toThrow(/invalid timeoutMs/);
      expect(() => resolve({ timeoutMs })).toThrow(TypeError);
    },
  );

  test.each([
    [{ maxOutputBytes: 3 }, /maxOutputBytes/],
    [{ memoryMb: 0 }, /memoryMb/],
    [{ sandbox: 'sometimes' as never }, /sandbox/],
    [{ language: 'ruby' as never }, /language/],
    [{ program: 42 as never }, /program/],
    [{ cwd: 'relative/dir' }, /cwd: must be absolute/],
    [{ signal: {} as never }, /signal/],
  ])('rejects %o', (extra, pattern) => {
    expect(() => resolve(extra)).toThrow(pattern);
  });

  test.each([
    'lambda',
    'typeof',
    'type',
    'match',
    '_',
    'console',
    '__ptc_main__',
    '__builtins__',
    '1abc',
    'a-b',
    'a$b',
    '',
  ])('rejects the global %j', (global) => {
    expect(() => resolve({ bindings: [ns(global)] })).toThrow(/bindings\[0\]\.global/);
  });

  test('rejects duplicate globals and error classes that collide with a global', () => {
    expect(() => resolve({ bindings: [ns('tools'), ns('tools')] })).toThrow(/declared twice/);
    expect(() =>
      resolve({ bindings: [ns('tools'), ns('web', { name: 'tools', memberNameProperty: 'toolName' })] }),
    ).toThrow(/collides/);
  });

  test.each(['', '__x__', 'args', 'name', 'message', 'stack'])('rejects the error member %j', (member) => {
    expect(() => resolve({ bindings: [ns('tools', { name: 'ToolCallError', memberNameProperty: member })] })).toThrow(
      /memberNameProperty/,
    );
  });

  test('accepts unusual but portable choices', () => {
    expect(() =>
      resolve({ bindings: [ns('helpers', { name: 'HelperCallError', memberNameProperty: 'tool-name' })] }),
    ).not.toThrow();
  });

  test('rejects non-function handlers and reads each field once', () => {
    let reads = 0;
    const hostile = {
      get global() {
        reads++;
        return 'tools';
      },
      functions: { f: async () => 1 },
    };
    resolve({ bindings: [hostile as BindingNamespace] });
    expect(reads).toBe(1);
    expect(() => resolve({ bindings: [{ global: 'tools', functions: { f: 'nope' } } as never] })).toThrow(
      /expected a function/,
    );
  });

  test('run() rejects a spec that did not come from resolve()', async () => {
    await expect(runtime.run({ language: 'typescript', program: '1' } as never)).rejects.toThrow(
      /spec returned by resolve/,
    );
  });
});

describe('portable identifiers', () => {
  test('reserved words are the union of ECMAScript and Python keywords', () => {
    for (const word of ['class', 'yield', 'await', 'def', 'lambda', 'None', 'nonlocal', 'async'])
      expect(PORTABLE_RESERVED_WORDS.has(word)).toBe(true);
    expect(identifierProblem('tools')).toBeUndefined();
  });

  test('dunder members are matched exactly', () => {
    expect(memberPropertyProblem('__init__')).toMatch(/dunder/);
    expect(memberPropertyProblem('__')).toBeUndefined();
    expect(memberPropertyProblem('__mid')).toBeUndefined();
    expect(memberPropertyProblem('_private')).toBeUndefined();
  });
});
