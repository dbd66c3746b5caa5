import { afterAll } from 'vitest';
import { createRuntime } from '../../runtime/index.js';
import type { BindingNamespace, CodeRunRequest, Runtime } from '../../runtime/api.js';
import type { RunResult } from '../../runtime/protocol/run-result.js';
import { RunResultSchema } from '../../runtime/protocol/run-result.js';

let shared: Runtime | undefined;

// One real runtime per test file, disposed at the end.
export function sharedRuntime(): Runtime {
  if (shared === undefined) {
    // PTC_TEST_ENGINE=wasm runs a suite (parity, hostile corpus) on the WebAssembly engines
    const engine = process.env.PTC_TEST_ENGINE;
    shared = createRuntime(
      engine === 'wasm' || engine === 'auto' || engine === 'native' ? { defaults: { engine } } : {},
    );
    afterAll(async () => {
      await shared?.dispose();
      shared = undefined;
    });
  }
  return shared;
}

export type RunOptions = Omit<CodeRunRequest, 'language' | 'program'>;

// Runs a program on the real runtime and checks the result against the contract schema.
export async function run(
  language: CodeRunRequest['language'],
  program: string,
  options: RunOptions = {},
): Promise<RunResult> {
  const runtime = sharedRuntime();
  const result = await runtime.run(runtime.resolve({ language, program, ...options }));
  RunResultSchema.parse(result);
  return result;
}

export const runTs = (program: string, options: RunOptions = {}) => run('typescript', program, options);

// A `tools` namespace with the usual test handlers.
export function toolsNamespace(overrides: Record<string, (args: never) => Promise<unknown>> = {}): BindingNamespace {
  const functions: Record<string, (args: never) => Promise<unknown>> = {
    add: async (args: { a: number; b: number }) => args.a + args.b,
    echo: async (args: unknown) => args,
    fail: async () => {
      throw new Error('tool exploded');
    },
    failString: async () => {
      throw 'raw string failure';
    },
    never: () => new Promise(() => undefined),
    slow: (args: { ms: number }) => new Promise((resolve) => setTimeout(() => resolve('slow done'), args.ms)),
    lossy: async () => Number.NaN,
    ...overrides,
  };
  return {
    global: 'tools',
    functions: functions as unknown as BindingNamespace['functions'],
    errorClass: { name: 'ToolCallError', memberNameProperty: 'toolName' },
  };
}

export function deepArray(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}
