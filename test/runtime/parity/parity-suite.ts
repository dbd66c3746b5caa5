import { describe, expect, test } from 'vitest';
import type { Language, RunResult } from '../../../runtime/protocol/run-result.js';
import { RuntimeMisuseError } from '../../../runtime/contract/misuse.js';
import { run as runOn, sharedRuntime, toolsNamespace, type RunOptions } from '../../helpers/runtime.js';
import { wasmEngineOf, NO_RETURN, PARITY_CASES, type EngineChoice, type ParityCase } from './behaviour-table.js';

const LANGUAGES: Language[] = ['typescript', 'python'];

// The expectation a row holds on this engine: the row's own, or the documented difference it names for the engine
// (docs/sandbox.md's table lists each).
function expectationOn(parityCase: ParityCase, language: Language, choice: EngineChoice): ParityCase['check'] {
  if (choice === 'native') return parityCase.check;
  return parityCase.differences?.[wasmEngineOf(language)]?.check ?? parityCase.check;
}

// Registers the behaviour table and the run-level behaviours for both languages on one engine choice: `native` (node,
// cpython) or `wasm` (quickjs, pyodide).
export function parityRows(choice: EngineChoice): void {
  // The shared behaviour table: every row runs on both backends, so parity is tested, not assumed.
  describe.concurrent.each(LANGUAGES)(`parity (%s, ${choice})`, (language) => {
    const run = (lang: Language, program: string, options: RunOptions = {}): Promise<RunResult> =>
      runOn(lang, program, { engine: choice, ...options });
    // a row without a program for this language describes a behaviour only the other language can show
    const rows = PARITY_CASES.filter((c) => c.programs[language] !== undefined);
    test.each(rows.map((c) => [c.name, c] as const))(
      '%s',
      async (_name, parityCase) => {
        const difference = choice === 'wasm' ? parityCase.differences?.[wasmEngineOf(language)] : undefined;
        const options = difference?.options ?? parityCase.options;
        const result = await run(language, parityCase.programs[language] as string, options?.() ?? {});
        expectationOn(parityCase, language, choice)(result, language);
        // the widest rows move 12 MB through the channel while the whole file runs concurrently: ~3 s alone, 20–40 s at
        // load 12, 40-100 s on pyodide with two suites at once (its row allows 280 s)
      },
      300_000,
    );

    test('no return: TypeScript omits value, Python returns null', async () => {
      NO_RETURN[language].check(await run(language, NO_RETURN[language].program));
    });

    test('onLog streams each entry as it arrives, the same entries the result holds', async () => {
      const streamed: { text: string; stream: string }[] = [];
      const program =
        language === 'python'
          ? "import sys\nprint('one')\nprint('two', file=sys.stderr)\nreturn 3"
          : "console.log('one');\nconsole.error('two');\nreturn 3;";
      const r = await run(language, program, { onLog: (entry) => streamed.push(entry) });
      expect(r.value).toBe(3);
      expect(streamed).toEqual([
        { text: 'one', stream: 'stdout' },
        { text: 'two', stream: 'stderr' },
      ]);
      expect(r.logs).toEqual(['one', 'two']);
    });

    test('onLog gives a flushed fragment once, as the whole entry, when its line completes or the run ends', async () => {
      const streamed: string[] = [];
      const program =
        language === 'python'
          ? "print('a', end='', flush=True)\nprint('b')\nprint('c', end='', flush=True)\nreturn 3"
          : "process.stdout.write('a');\nconsole.log('b');\nprocess.stdout.write('c');\nreturn 3;";
      const r = await run(language, program, { onLog: (entry) => streamed.push(entry.text) });
      // QuickJS has no process.stdout (docs/sandbox.md's differences)
      if (choice === 'wasm' && language === 'typescript') return expect(r.error?.kind).toBe('exception');
      expect(r.logs).toEqual(['ab', 'c']);
      expect(streamed).toEqual(['ab', 'c']);
    });

    test('abort mid-loop is abort with the reason as message', async () => {
      const controller = new AbortController();
      // aborted once the loop runs (the line is written right before it), not while the process starts
      const program =
        language === 'python'
          ? "print('looping', flush=True)\nwhile True:\n    pass"
          : "console.log('looping');\nwhile (true) {}";
      // pyodide sends what the program printed only between steps, never from inside a tight loop: a timer aborts
      const timed = choice === 'wasm' && language === 'python';
      const timer = timed ? setTimeout(() => controller.abort('stop'), 5_000) : undefined;
      const r = await run(language, program, {
        signal: controller.signal,
        onLog: () => controller.abort('stop'),
        timeoutMs: 60_000,
      });
      clearTimeout(timer);
      expect(r.error).toEqual({ kind: 'abort', message: 'stop' });
    });

    test('a pre-aborted signal is abort without starting a process', async () => {
      const controller = new AbortController();
      controller.abort('already');
      const r = await run(language, 'return 1', { signal: controller.signal });
      expect(r.error).toEqual({ kind: 'abort', message: 'already' });
    });

    test('a forged call to an undeclared binding is a protocol failure and runs no handler', async () => {
      let ran = false;
      const program =
        language === 'python'
          ? 'import os, asyncio\nos.write(3, b\'{"type":"call","id":1,"global":"tools","name":"secret","args":{}}\\n\')\nawait asyncio.sleep(3)'
          : "const fs = await import('node:fs');\nconst body = Buffer.from(JSON.stringify({ type: 'call', id: 1, global: 'tools', name: 'secret', args: {} }));\nconst h = Buffer.alloc(4); h.writeUInt32BE(body.length, 0);\nfs.writeSync(3, Buffer.concat([h, body]));\nawait new Promise((r) => setTimeout(r, 3000));";
      const r = await run(language, program, {
        bindings: [toolsNamespace({ echo: async () => ((ran = true), 1) })],
        // a safety net only (the run ends on the forged frame): a cold pyodide start takes seconds on a loaded machine
        timeoutMs: 30_000,
      });
      // a WebAssembly guest has no descriptor 3 (nor node:fs): the write itself fails, in the program
      if (choice === 'wasm') expect(r.error?.kind).toBe('exception');
      else {
        expect(r.error?.kind).toBe('protocol');
        expect(r.error?.message).toMatch(/undeclared binding/);
      }
      expect(ran).toBe(false);
    });

    test('run() refuses a spec altered or rebuilt after resolve()', async () => {
      const runtime = sharedRuntime();
      const spec = runtime.resolve({
        language,
        program: 'return 1',
        timeoutMs: 5_000,
        bindings: [toolsNamespace()],
        engine: choice,
      });
      expect(Object.isFrozen(spec)).toBe(true);
      expect(() => Object.assign(spec, { timeoutMs: Number.POSITIVE_INFINITY })).toThrow(TypeError);
      expect(() => (spec.bindings as unknown[]).push({})).toThrow(TypeError);
      expect(() => Object.assign(spec.bindings[0]?.functions ?? {}, { extra: async () => 1 })).toThrow(TypeError);
      expect(spec.timeoutMs).toBe(5_000);
      await expect(runtime.run({ ...spec, timeoutMs: Number.POSITIVE_INFINITY })).rejects.toThrow(RuntimeMisuseError);
      await expect(runtime.warm({ ...spec })).rejects.toThrow(RuntimeMisuseError);
      expect((await runtime.run(spec)).value).toBe(1);
    });
  });
}
