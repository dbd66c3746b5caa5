import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { forgeFrame } from './forge-frame.js';
import type { Language } from '../../../runtime/protocol/run-result.js';
import { run, toolsNamespace } from '../../helpers/runtime.js';

// Contract edges (issue 30): hostile globals, throwing getters, lossy arguments, unsafe integers, repeated call ids.
// Every case runs a real child of each language; the routed (bindings host) variants are in contract-edges-cli.test.ts.
const LANGUAGES: Language[] = ['typescript', 'python'];

const sleep = (language: Language, ms: number): string =>
  language === 'python'
    ? `import asyncio\nawait asyncio.sleep(${ms / 1000})`
    : `await new Promise((r) => setTimeout(r, ${ms}));`;

describe.concurrent.each(LANGUAGES)('contract edges (%s)', (language) => {
  test('a program that replaces the globals the runtime uses still makes calls, catches failures and completes', async () => {
    const program =
      language === 'python'
        ? [
            // json, the real builtins (not the program's own copy), the runner's module globals through a binding
            'import json',
            'json.dumps = json.loads = None',
            "real = tools.echo.__globals__['sys'].modules['builtins']",
            "for name in ['isinstance', 'len', 'type', 'str', 'int', 'float', 'dict', 'list', 'tuple', 'repr', 'iter', 'next', 'range', 'min', 'max', 'bool', 'id', 'setattr', 'getattr', 'hasattr', 'memoryview', 'bytes', 'Exception', 'BaseException', 'RuntimeError', 'TypeError', 'ValueError', 'KeyError', 'AttributeError', 'StopIteration', 'object', 'super']:",
            '    real.__dict__[name] = None',
            'runner = tools.echo.__globals__',
            'for name in list(runner):',
            "    if not name.startswith('__'):",
            '        runner[name] = None',
            "value = await tools.echo({'a': [1, 2.5, 'x']})",
            'try:',
            '    await tools.fail({})',
            'except ToolCallError as e:',
            "    value['failure'] = [e.toolName, str(e)]",
            "print('still logging')",
            'return value',
          ].join('\n')
        : [
            'const g = globalThis as Record<string, unknown>;',
            "for (const name of ['Error', 'TypeError', 'RangeError', 'JSON', 'Map', 'Set', 'Promise', 'Reflect', 'Symbol', 'Buffer', 'Uint8Array', 'queueMicrotask']) g[name] = 5;",
            'Array.prototype.push = Array.prototype.map = Array.prototype.join = Array.prototype.slice = (() => { throw new Error("array method"); }) as never;',
            'String.prototype.slice = String.prototype.split = (() => { throw new Error("string method"); }) as never;',
            'Function.prototype.call = Function.prototype.apply = Function.prototype.bind = (() => { throw new Error("function method"); }) as never;',
            "Object.defineProperty(Object.prototype, 'toJSON', { __proto__: null, value: () => 'hijacked', configurable: true } as PropertyDescriptor);",
            // null-prototype descriptors: the program's own later descriptors must not read the accessors it plants
            "for (const key of ['value', 'kind', 'get', 'set', 'message']) Object.defineProperty(Object.prototype, key, { __proto__: null, get() { throw key; }, configurable: true } as PropertyDescriptor);",
            'const value = await tools.echo({ a: [1, 2.5, "x"] }) as Record<string, unknown>;',
            'try { await tools.fail({}); } catch (e) { value.failure = [(e as { toolName: string }).toolName, String((e as Error).message)]; }',
            "console.log('still logging');",
            'return value;',
          ].join('\n');
    const r = await run(language, program, { bindings: [toolsNamespace()] });
    expect(r.error).toBeUndefined();
    expect(r.value).toEqual({ a: [1, 2.5, 'x'], failure: ['fail', 'tool exploded'] });
    expect(r.logs).toEqual(['still logging']);
    expect(r.calls.map((c) => c.id)).toEqual([1, 2]);
  });

  test('a completion holding a throwing getter is invalid-output, naming where', async () => {
    const program =
      language === 'python'
        ? "class Box:\n    @property\n    def x(self):\n        raise ValueError('getter boom')\nreturn {'list': [1, Box()]}"
        : "return { list: [1, { get x() { throw new Error('getter boom'); } }] };";
    const r = await run(language, program);
    expect(r.error?.kind).toBe('invalid-output');
    expect(r.error?.message).toMatch(/^program completion must be lossless JSON: \$\.list\[1\]/);
    if (language === 'typescript')
      expect(r.error?.message).toContain('$.list[1].x could not be read (it threw Error: getter boom)');
    expect(r.value).toBeUndefined();
  });

  test('an argument holding a throwing getter rejects that call inside the program; the next call with the same objects works', async () => {
    const program =
      language === 'python'
        ? [
            'class Box:',
            '    @property',
            '    def x(self):',
            "        raise ValueError('getter boom')",
            "shared = {'deep': [1, 2]}",
            'try:',
            "    await tools.echo({'shared': shared, 'box': Box()})",
            "    message = 'sent'",
            'except ToolCallError as e:',
            '    message = str(e)',
            "return [message, await tools.echo({'shared': shared, 'again': shared})]",
          ].join('\n')
        : [
            'const shared = { deep: [1, 2] };',
            "const outer: Record<string, unknown> = { shared, get box() { throw new Error('getter boom'); } };",
            'let message = "sent";',
            'try { await tools.echo(outer); } catch (e) { message = (e as Error).message; }',
            // the walk that failed held `outer` and `shared` open: a second walk must not see them as cycles
            "Object.defineProperty(outer, 'box', { value: 'fixed', enumerable: true });",
            'return [message, await tools.echo({ outer, again: shared })];',
          ].join('\n');
    const r = await run(language, program, { bindings: [toolsNamespace()] });
    expect(r.error).toBeUndefined();
    const [message, second] = r.value as [string, unknown];
    expect(message).toMatch(/^arguments to tools\.echo must be lossless JSON: \$\.box/);
    if (language === 'typescript') {
      expect(message).toContain('could not be read (it threw Error: getter boom)');
      expect(second).toEqual({ outer: { shared: { deep: [1, 2] }, box: 'fixed' }, again: { deep: [1, 2] } });
    } else expect(second).toEqual({ shared: { deep: [1, 2] }, again: { deep: [1, 2] } });
    // the refused call never got an id: the one that went out is call 1
    expect(r.calls.map((c) => c.id)).toEqual([1]);
  });

  test('lossy arguments are refused at the call, catchably, before a call id is allocated', async () => {
    const program =
      language === 'python'
        ? [
            'out = []',
            "for bad in [{'x': [float('nan')]}, {1: 2}, (1, 2), {'f': print}, {'s': {1, 2}}, [-0.0], 2 ** 53 + 1]:",
            '    try:',
            '        await tools.echo(bad)',
            "        out.append('sent')",
            '    except ToolCallError as e:',
            '        out.append(str(e))',
            "out.append(await tools.echo('real'))",
            'return out',
          ].join('\n')
        : [
            'const out: unknown[] = [];',
            "for (const bad of [[1, undefined], { f() {} }, { [Symbol('s')]: 1 }, [-0], 10n, Object.assign([1], { extra: 1 }), [1, , 3]]) {",
            "  try { await tools.echo(bad as never); out.push('sent'); } catch (e) { out.push((e as Error).message); }",
            '}',
            "out.push(await tools.echo('real'));",
            'return out;',
          ].join('\n');
    const r = await run(language, program, { bindings: [toolsNamespace()] });
    expect(r.error).toBeUndefined();
    const out = r.value as string[];
    expect(out.at(-1)).toBe('real');
    for (const message of out.slice(0, -1))
      expect(message).toMatch(/^arguments to tools\.echo must be lossless JSON: \$/);
    expect(r.calls.map((c) => [c.id, c.args])).toEqual([[1, 'real']]);
  });

  test('a forged completion with an integer a double cannot hold is a protocol violation, not a rounded value', async () => {
    const r = await run(
      language,
      `${forgeFrame(language, '{"type":"done","value":{"n":[9007199254740993]}}')}\n${sleep(language, 3000)}`,
      {
        timeoutMs: 20_000,
      },
    );
    expect(r.error?.kind).toBe('protocol');
    expect(r.error?.message).toMatch(/9007199254740993 is an integer outside the safe range/);
    expect(r.value).toBeUndefined();
  });

  test('a forged call with an unsafe integer argument is refused before any handler runs', async () => {
    let ran = false;
    const program = `${forgeFrame(language, '{"type":"call","id":1,"global":"tools","name":"echo","args":{"n":-12345678901234567890}}')}\n${sleep(language, 3000)}`;
    const r = await run(language, program, {
      bindings: [toolsNamespace({ echo: async () => ((ran = true), 1) })],
      timeoutMs: 20_000,
    });
    expect(r.error?.kind).toBe('protocol');
    expect(r.error?.message).toMatch(/-12345678901234567890 is an integer outside the safe range/);
    expect(ran).toBe(false);
  });

  test('integers past 2^53 that a double holds exactly, and strings of digits, cross unchanged', async () => {
    const program =
      language === 'python'
        ? "return [2 ** 53, -(2 ** 60), float(2 ** 70), '9007199254740993', {'9007199254740993': 1}]"
        : "return [2 ** 53, -(2 ** 60), 2 ** 70, '9007199254740993', { '9007199254740993': 1 }];";
    const r = await run(language, program);
    expect(r.error).toBeUndefined();
    expect(r.value).toEqual([2 ** 53, -(2 ** 60), 2 ** 70, '9007199254740993', { '9007199254740993': 1 }]);
  });

  test('scalar boundaries come back as the same doubles from both languages; -0 is refused', async () => {
    const scalars = [
      '1e21',
      '1e-7',
      '1.5e-7',
      '5e-324',
      '1.7976931348623157e308',
      '0.1 + 0.2',
      '123456789012345680000',
      '1e300',
      '-1e-300',
      '2.5e-5',
      '100',
      '0.000001',
    ];
    const program =
      language === 'python'
        ? `return [${scalars.map((s) => `float(${s})`).join(', ')}]`
        : `return [${scalars.join(', ')}];`;
    const r = await run(language, program);
    expect(r.error).toBeUndefined();
    // evaluated as JavaScript: the doubles both children had to send exactly
    expect(r.value).toEqual(scalars.map((s) => Number(eval(s))));
    const negativeZero = await run(language, language === 'python' ? 'return [-0.0]' : 'return [-0];');
    expect(negativeZero.error).toEqual({
      kind: 'invalid-output',
      message: 'program completion must be lossless JSON: $[0] is -0',
    });
  });

  test('a repeated call id: the first call is served once, the repeat is a protocol violation', async () => {
    let slow = 0;
    let other = 0;
    const start =
      language === 'python'
        ? "import asyncio\npending = asyncio.ensure_future(tools.slow({'ms': 1500}))\nawait asyncio.sleep(0.3)"
        : 'const pending = tools.slow({ ms: 1500 });\nawait new Promise((r) => setTimeout(r, 300));';
    const program = `${start}\n${forgeFrame(language, '{"type":"call","id":1,"global":"tools","name":"echo","args":"forged"}')}\n${language === 'python' ? 'return await pending' : 'return await pending;'}`;
    const r = await run(language, program, {
      bindings: [
        toolsNamespace({
          slow: async () => {
            slow++;
            await new Promise((resolve) => setTimeout(resolve, 1500));
            return 'slow done';
          },
          echo: async () => ((other += 1), 'echo'),
        }),
      ],
      timeoutMs: 20_000,
    });
    expect(r.error?.kind).toBe('protocol');
    expect(r.error?.message).toMatch(/call id 1/);
    expect(slow).toBe(1);
    expect(other).toBe(0);
  });
});

// The Python runner spells floats as ECMAScript's Number::toString does: the same text, not only the same double.
test('the Python runner spells every double as JavaScript does', () => {
  const doubles = [
    1e21,
    1e-7,
    1.5e-7,
    5e-324,
    1.7976931348623157e308,
    0.1 + 0.2,
    123456789012345680000,
    1e300,
    -1e-300,
    2.5e-5,
    100,
    2 ** 53,
    2 ** 70,
    1e-6,
    123.456,
    -0.5,
  ];
  const script = [
    'import json, sys',
    `sys.path.insert(0, ${JSON.stringify(path.resolve('python'))})`,
    'sys.dont_write_bytecode = True',
    'from ptc_json import js_number',
    'print(json.dumps([js_number(float(x)) for x in json.loads(sys.stdin.read())]))',
  ].join('\n');
  const spelled = JSON.parse(
    execFileSync('python3', ['-c', script], { input: JSON.stringify(doubles), encoding: 'utf8' }),
  ) as string[];
  expect(spelled).toEqual(doubles.map((d) => String(d)));
});
