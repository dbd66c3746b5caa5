import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BindingsHost, type BindingsHostState } from '../../../runtime/bindings-host/bindings-host.js';
import {
  createRuntime,
  RunResultSchema,
  type EngineChoice,
  type Language,
  type RunResult,
} from '../../../runtime/index.js';
import { eventually } from '../../helpers/eventually.js';

// The bindings host process driven directly (the session's view of it): states, calls served straight from program
// children of both languages, what happens to calls when the host dies, hangs, restarts or is interrupted.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-bindings-host-'));
const runtime = createRuntime({ spares: 1 });
const hosts: BindingsHost[] = [];
afterAll(async () => {
  await Promise.all(hosts.map((h) => h.dispose()));
  await runtime.dispose();
  fs.rmSync(dir, { recursive: true, force: true });
});

const MODULE = `let served = 0;
export default { tools: { errorClass: { name: 'ToolCallError', memberNameProperty: 'toolName' }, functions: {
  add: { input: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] }, mock: async ({ a, b }) => a + b },
  served: async () => ++served,
  pid: async () => process.pid,
  // says when it starts looping: a test can interrupt it there
  spin: async () => { console.log('spinning'); while (true) {} },
  exit: async () => process.exit(9),
  wait: (_args, { signal }) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('saw abort: ' + signal.reason?.message)))),
} } };
`;

let counter = 0;
function open(text = MODULE): { host: BindingsHost; states: BindingsHostState[]; logs: string[]; file: string } {
  const file = path.join(dir, `m${++counter}.bindings.mjs`);
  fs.writeFileSync(file, text);
  const states: BindingsHostState[] = [];
  const logs: string[] = [];
  const host = new BindingsHost({
    modulePath: file,
    cwd: dir,
    onStatus: (s) => states.push(s.state),
    onLog: (e) => logs.push(e.text),
  });
  hosts.push(host);
  return { host, states, logs, file };
}

async function run(
  host: BindingsHost,
  language: Language,
  program: string,
  { timeoutMs = 60_000, engine = 'native' }: { timeoutMs?: number; engine?: EngineChoice } = {},
): Promise<RunResult> {
  const ready = await host.ready();
  if (!ready.ok) throw new Error(ready.message);
  const lease = host.lease({ mode: 'mock', seed: 1, routeCalls: true });
  const result = await runtime.run(
    runtime.resolve({ language, program, bindings: lease.namespaces, hosted: lease, timeoutMs, engine }),
  );
  RunResultSchema.parse(result);
  return result;
}

const PROGRAMS = {
  typescript: {
    add: 'return await tools.add({ a: 2, b: 40 });',
    refused: "return await tools.add({ a: 'x' }).catch((e) => [e.name, e.toolName, e.message]);",
    exit: 'const first = await tools.exit().catch((e) => e.message);\nreturn [first, await tools.served().catch((e) => e.message)];',
    spin: 'return await tools.spin().catch((e) => e.message);',
  },
  python: {
    add: 'return await tools.add(a=2, b=40)',
    refused:
      'try:\n    return await tools.add(a="x")\nexcept ToolCallError as e:\n    return ["ToolCallError", e.toolName, str(e)]',
    exit: 'try:\n    await tools.exit()\nexcept Exception as e:\n    first = str(e)\ntry:\n    later = await tools.served()\nexcept Exception as e:\n    later = str(e)\nreturn [first, later]',
    spin: 'try:\n    return await tools.spin()\nexcept Exception as e:\n    return str(e)',
  },
} as const;

// every engine: each child speaks its own wire's framing on the host connection (node-wire frames for Node, QuickJS
// and pyodide, lines for CPython), whatever the program's language
describe.each([
  { language: 'typescript', engine: 'native' },
  { language: 'python', engine: 'native' },
  { language: 'typescript', engine: 'wasm' },
  { language: 'python', engine: 'wasm' },
] as const)('a $language program on the $engine engine calls the bindings host directly', ({ language, engine }) => {
  const programs = PROGRAMS[language];

  test('calls are served by the host and recorded in the result like any call', async () => {
    const { host, states } = open();
    const result = await run(host, language, programs.add, { engine });
    expect(result.value).toBe(42);
    expect(result.calls).toMatchObject([
      { id: 1, global: 'tools', name: 'add', args: { a: 2, b: 40 }, ok: true, value: 42 },
    ]);
    expect(states.slice(0, 2)).toEqual(['starting', 'ready']);
    const refused = await run(host, language, programs.refused, { engine });
    expect(refused.value).toEqual([
      'ToolCallError',
      'add',
      'invalid arguments for tools.add: $.b: is required\ninvalid arguments for tools.add: $.a: must be number',
    ]);
  });

  test('a handler that exits the host fails that call naming the code; later calls of the run fail too', async () => {
    const { host, states } = open();
    const result = await run(host, language, programs.exit, { engine });
    expect(result.value).toEqual([
      'bindings host exited with code 9 while tools.exit was running',
      'bindings host exited with code 9',
    ]);
    expect(result.calls.map((c) => [c.name, c.message])).toEqual([
      ['exit', 'bindings host exited with code 9 while tools.exit was running'],
      ['served', 'bindings host exited with code 9'],
    ]);
    expect(states).toContain('crashed');
    expect(host.status.detail).toMatch(/^the bindings host exited with code 9/);
    // the next run gets a fresh host
    expect((await run(host, language, programs.add, { engine })).value).toBe(42);
  });

  test('a handler stuck in a synchronous loop: the host stops beating and is replaced; that call fails by name', async () => {
    const { host } = open();
    const result = await run(host, language, programs.spin, { engine });
    expect(result.value).toBe('bindings host stopped responding while tools.spin was running');
    await eventually('the host to be marked crashed after it stopped beating', () => host.status.state === 'crashed');
    expect((await run(host, language, programs.add, { engine })).value).toBe(42);
  });
});

describe('the host across runs', () => {
  test('one host process serves consecutive runs (module state lives on) until the module file changes', async () => {
    const { host, file } = open();
    const first = await run(host, 'typescript', 'return [await tools.pid(), await tools.served()];');
    const second = await run(host, 'python', 'return [await tools.pid(), await tools.served()]');
    expect((second.value as number[])[0]).toBe((first.value as number[])[0]);
    expect(second.value).toEqual([(first.value as number[])[0], 2]);
    fs.writeFileSync(file, `${MODULE}\n// edited\n`);
    const third = await run(host, 'typescript', 'return [await tools.pid(), await tools.served()];');
    expect((third.value as number[])[0]).not.toBe((first.value as number[])[0]);
    expect((third.value as number[])[1]).toBe(1);
  });

  test('when a run settles, its handlers still running get their abort signal', async () => {
    const { host, logs } = open(
      MODULE.replace(
        "wait: (_args, { signal }) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('saw abort: ' + signal.reason?.message)))),",
        "wait: (_args, { signal }) => new Promise(() => signal.addEventListener('abort', () => console.log('aborted: ' + signal.reason?.message))),",
      ),
    );
    const result = await run(host, 'typescript', 'tools.wait();\nreturn 1;');
    expect(result.value).toBe(1);
    await eventually('the handler to log that it saw its abort', () => logs.includes('aborted: run settled'));
  });

  test('interrupt fails the calls the host is running, and the handlers see their signal', async () => {
    const { host } = open();
    await host.ready();
    const lease = host.lease({ mode: 'mock', seed: 1, routeCalls: true });
    const running = runtime.run(
      runtime.resolve({
        language: 'typescript',
        program: 'return await tools.wait().catch((e) => e.message);',
        bindings: lease.namespaces,
        hosted: lease,
      }),
    );
    await eventually('the host to be busy with tools.wait', () => host.status.state === 'busy');
    expect(await host.interrupt()).toBe(1);
    const result = await running;
    expect(result.value).toBe('tools.wait was interrupted');
    await eventually('the host to be ready again after the interrupt', () => host.status.state === 'ready');
  });

  test('interrupting a host stuck in a handler kills it; the next run gets a fresh one', async () => {
    const { host, logs } = open();
    await host.ready();
    const lease = host.lease({ mode: 'mock', seed: 1, routeCalls: true });
    const running = runtime.run(
      runtime.resolve({
        language: 'typescript',
        program: 'return await tools.spin().catch((e) => e.message);',
        bindings: lease.namespaces,
        hosted: lease,
      }),
    );
    // interrupted once the handler loops: the call reaches the runtime from the host's flight record (its report never
    // comes)
    await eventually('tools.spin to start looping', () => logs.includes('spinning'));
    await host.interrupt();
    expect((await running).value).toBe('bindings host stopped responding while tools.spin was running');
    expect((await run(host, 'typescript', 'return await tools.served();')).value).toBe(1);
  });

  test('restart: calls of the old host fail naming the restart; the module is imported afresh', async () => {
    const { host } = open();
    await host.ready();
    const lease = host.lease({ mode: 'mock', seed: 1, routeCalls: true });
    const running = runtime.run(
      runtime.resolve({
        language: 'python',
        program: 'try:\n    return await tools.wait()\nexcept Exception as e:\n    return str(e)',
        bindings: lease.namespaces,
        hosted: lease,
      }),
    );
    await eventually('the host to be busy with tools.wait', () => host.status.state === 'busy');
    await host.restart();
    expect((await running).value).toBe('bindings host was restarted while tools.wait was running');
    expect((await run(host, 'typescript', 'return await tools.served();')).value).toBe(1);
  });

  test('a watcher that reports the file it loaded (a creation reported late) leaves the load alone; an edit restarts', async () => {
    // a module slow to load: the first run is still waiting on it when the watcher's late event arrives
    const slow = `await new Promise((resolve) => setTimeout(resolve, 1500));\n${MODULE}`;
    const { host, file } = open(slow);
    const loading = host.ready();
    await eventually('the host to be loading', () => host.status.state === 'starting');
    const kept = await host.restartIfChanged('was restarted because the bindings module changed');
    expect(kept).toMatchObject({ ok: true });
    expect(await loading).toMatchObject({ ok: true });
    expect((await run(host, 'typescript', 'return await tools.served();')).value).toBe(1);
    expect((await run(host, 'typescript', 'return await tools.served();')).value).toBe(2);
    // an edit on disk: the module is imported afresh, its state gone
    fs.writeFileSync(file, `${slow}\n// edited\n`);
    expect(await host.restartIfChanged('was restarted because the bindings module changed')).toMatchObject({
      ok: true,
    });
    expect((await run(host, 'typescript', 'return await tools.served();')).value).toBe(1);
    // the control: a plain restart during a load fails the wait on it, as the late event used to do in VS Code
    const control = open(slow).host;
    const waited = control.ready();
    await eventually('the control host to be loading', () => control.status.state === 'starting');
    await control.restart('was restarted because the bindings module changed');
    expect(await waited).toMatchObject({
      ok: false,
      message: expect.stringContaining('was restarted because the bindings module changed while loading'),
    });
  });

  test('a module that fails to load is "failed" with its message, and loads again once fixed', async () => {
    const { host, file } = open('export default { tools: { functions: { x: ( } } };\n');
    const ready = await host.ready();
    expect(ready).toMatchObject({ ok: false });
    expect(!ready.ok && ready.message).toContain(path.basename(file));
    expect(host.status.state).toBe('failed');
    fs.writeFileSync(file, MODULE);
    expect((await run(host, 'typescript', 'return await tools.served();')).value).toBe(1);
  });

  test("a flood of the module's output is passed on at a bounded rate, the rest counted", async () => {
    const { host, logs } = open(`for (let i = 0; i < 5000; i++) console.log('line ' + i);\n${MODULE}`);
    await host.ready();
    // every line is either passed on or counted in a summary
    const accounted = (): { passed: number; dropped: number } => ({
      passed: logs.filter((line) => line.startsWith('line ')).length,
      dropped: logs
        .map((line) => Number(/^… (\d+) more line\(s\) of bindings output dropped/.exec(line)?.[1] ?? 0))
        .reduce((a, b) => a + b, 0),
    });
    await eventually('all 5000 lines passed on or counted', () => accounted().passed + accounted().dropped >= 5000);
    expect(accounted().passed + accounted().dropped).toBe(5000);
    expect(accounted().dropped).toBeGreaterThan(0);
  });

  test("the module's console output reaches the host's log, never a program's", async () => {
    const { host, logs } = open(`console.log('hello from the module');\n${MODULE}`);
    const result = await run(host, 'typescript', 'return await tools.served();');
    expect(result.logs).toEqual([]);
    // the module's stdout is a pipe of its own, read apart from the host's channel: the line may land after the run
    await eventually("the module's console line in the host's log", () => logs.includes('hello from the module'));
  });
});

// A .ts module as authors write them: a relative .ts import (extensionless, as TypeScript resolves it), an npm package
// from the module's own node_modules, and a type-only import that must vanish (its file would throw if executed).
function typescriptModule(): string {
  const root = fs.mkdtempSync(path.join(dir, 'ts-module-'));
  fs.mkdirSync(path.join(root, 'lib'));
  fs.mkdirSync(path.join(root, 'node_modules', 'tiny-greeter'), { recursive: true });
  fs.writeFileSync(
    path.join(root, 'node_modules', 'tiny-greeter', 'package.json'),
    JSON.stringify({ name: 'tiny-greeter', version: '1.0.0', main: 'index.cjs' }),
  );
  fs.writeFileSync(
    path.join(root, 'node_modules', 'tiny-greeter', 'index.cjs'),
    "exports.greet = (who) => 'hello ' + who + ' from ' + __filename;\n",
  );
  fs.writeFileSync(
    path.join(root, 'lib', 'math.ts'),
    'export enum Scale { Double = 2 }\nexport const scale = (n: number, by: Scale = Scale.Double): number => n * by;\n',
  );
  fs.writeFileSync(
    path.join(root, 'lib', 'types.ts'),
    "export interface Args { n: number }\nthrow new Error('a type-only import was executed');\n",
  );
  const file = path.join(root, 'tools.bindings.ts');
  fs.writeFileSync(
    file,
    `import fs from 'node:fs';
import { defineBindings } from 'ptc-playground/bindings';
import { greet } from 'tiny-greeter';
import { scale } from './lib/math';
import type { Args } from './lib/types.ts';

export default defineBindings({
  tools: {
    functions: {
      scale: async ({ n }: Args) => scale(n),
      greet: async ({ who }: { who: string }) => greet(who),
      // the host's child processes (its esbuild service among them), by command line
      children: async () =>
        fs.readdirSync('/proc').filter((pid) => /^\\d+$/.test(pid)).flatMap((pid) => {
          try {
            const stat = fs.readFileSync('/proc/' + pid + '/stat', 'utf8');
            if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== process.pid) return [];
            return [fs.readFileSync('/proc/' + pid + '/cmdline', 'utf8').split('\\0').join(' ')];
          } catch {
            return [];
          }
        }),
    },
  },
});
`,
  );
  return file;
}

// esbuild-wasm, as the VSIX ships it (dist/node_modules): a checkout would otherwise bundle with native esbuild
describe('a TypeScript bindings module in the host process, bundled by esbuild-wasm', () => {
  const saved = process.env.PTC_BINDINGS_ESBUILD;
  beforeAll(() => {
    process.env.PTC_BINDINGS_ESBUILD = 'wasm';
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.PTC_BINDINGS_ESBUILD;
    else process.env.PTC_BINDINGS_ESBUILD = saved;
  });

  test('bundles its relative .ts import, loads its npm package from where it is installed, drops its type-only import', async () => {
    const file = typescriptModule();
    const host = new BindingsHost({ modulePath: file, cwd: path.dirname(file), onStatus: () => {}, onLog: () => {} });
    hosts.push(host);
    const result = await run(
      host,
      'typescript',
      "return [await tools.scale({ n: 21 }), await tools.greet({ who: 'ts' })];",
    );
    const installed = path.join(path.dirname(file), 'node_modules', 'tiny-greeter', 'index.cjs');
    expect(result.value).toEqual([42, `hello ts from ${installed}`]);
    // bundled by the build's esbuild-wasm, started through its launcher (V8's baseline tier), not by a native binary
    const children = (await run(host, 'typescript', 'return await tools.children();')).value as string[];
    expect(
      children.filter((c) => c.includes(path.join('dist', 'node_modules', 'esbuild-wasm', 'bin', 'ptc-service.cjs'))),
    ).toHaveLength(1);
    expect(children.filter((c) => c.includes('@esbuild'))).toEqual([]);
  });

  test("loads with no `node` on PATH: esbuild-wasm runs on the host's own executable (the editor's, in VS Code)", async () => {
    const file = typescriptModule();
    const empty = fs.mkdtempSync(path.join(dir, 'empty-path-'));
    const saved = process.env.PATH;
    // the host process inherits this environment when it starts, which ready() waits for
    process.env.PATH = empty;
    let host: BindingsHost;
    try {
      host = new BindingsHost({ modulePath: file, cwd: path.dirname(file), onStatus: () => {}, onLog: () => {} });
      hosts.push(host);
      const ready = await host.ready();
      expect(ready).toMatchObject({ ok: true });
    } finally {
      process.env.PATH = saved;
    }
    expect((await run(host, 'python', 'return await tools.scale(n=4)')).value).toBe(8);
  });
});
