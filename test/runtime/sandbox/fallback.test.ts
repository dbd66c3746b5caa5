import { afterAll, describe, expect, test } from 'vitest';
import { createRuntime } from '../../../runtime/index.js';
import { RunResultSchema } from '../../../runtime/protocol/run-result.js';

// A host without bubblewrap, for real: best-effort keeps what it can and says `partial`, naming the package;
// required refuses before anything starts.
const runtime = createRuntime({ bubblewrapPath: null });
afterAll(() => runtime.dispose());

const spawnAttempt = {
  typescript:
    "const cp = await import('node:child_process');\ntry { cp.spawnSync('/bin/true'); return 'spawned'; } catch (e: any) { return 'denied:' + e.code; }",
  python:
    "import os\ntry:\n    os.posix_spawn('/bin/true', ['true'], {})\n    return 'spawned'\nexcept OSError as e:\n    return 'denied'",
};

describe.each(['typescript', 'python'] as const)('without bubblewrap (%s)', (language) => {
  test('best-effort: partial, still no child processes, and the report names what is missing and what to install', async () => {
    const r = await runtime.run(runtime.resolve({ language, program: spawnAttempt[language] }));
    RunResultSchema.parse(r);
    expect(r.value).toMatch(/^denied/);
    expect(r.sandbox.enforcement).toBe('partial');
    expect(r.sandbox.childProcess).toBe('denied');
    expect(r.sandbox.filesystem).toBe(language === 'typescript' ? 'denied' : 'allowed');
    expect(r.sandbox.missing?.[0]).toMatch(/^OS sandbox: bubblewrap turned off .* install the "bubblewrap" package/);
  });

  test('required: sandbox-unavailable before anything starts', async () => {
    const r = await runtime.run(runtime.resolve({ language, program: 'return 1', sandbox: 'required' }));
    expect(r.error?.kind).toBe('sandbox-unavailable');
    expect(r.error?.message).toMatch(/bubblewrap/);
    expect(r.value).toBeUndefined();
  });
});
