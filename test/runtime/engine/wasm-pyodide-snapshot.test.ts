import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createRuntime } from '../../../runtime/index.js';
import type { Runtime } from '../../../runtime/api.js';
import { RunResultSchema, type RunResult } from '../../../runtime/protocol/run-result.js';
import { SNAPSHOT_FILE } from '../../../runtime/wasm/pyodide/snapshot-file.js';

// The pyodide engine starts each child's interpreter from a memory snapshot kept in the engines' cache folder: still
// one process and one interpreter per run, with the lockdown run in each. What one run does to its interpreter, its
// modules, its files and its random state never reaches the next.
const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-engine-cache-'));
const saved = process.env.PTC_ENGINE_CACHE;
let runtime: Runtime;

beforeAll(() => {
  process.env.PTC_ENGINE_CACHE = cache;
  runtime = createRuntime({ spares: 0 });
});
afterAll(async () => {
  await runtime.dispose();
  if (saved === undefined) delete process.env.PTC_ENGINE_CACHE;
  else process.env.PTC_ENGINE_CACHE = saved;
  fs.rmSync(cache, { recursive: true, force: true });
});

async function run(program: string): Promise<RunResult> {
  const result = await runtime.run(
    runtime.resolve({ language: 'python', program, engine: 'wasm', timeoutMs: 120_000 }),
  );
  expect(RunResultSchema.safeParse(result).success).toBe(true);
  return result;
}

const LEAVE = `import builtins, sys, os, random, json
builtins.LEFT = 'builtins'
json.LEFT = 'module'
sys.modules['left_behind'] = sys
sys.setrecursionlimit(77)
os.environ['LEFT'] = 'env'
open('/tmp/left.txt', 'w').write('file')
open('/home/pyodide/left.txt', 'w').write('file')
return random.random()`;

const LOOK = `import builtins, sys, os, random, json
return {
    'builtins': hasattr(builtins, 'LEFT'),
    'module': hasattr(json, 'LEFT'),
    'sys.modules': 'left_behind' in sys.modules,
    'recursionlimit': sys.getrecursionlimit() == 77,
    'env': 'LEFT' in os.environ,
    'files': os.path.exists('/tmp/left.txt') or os.path.exists('/home/pyodide/left.txt'),
    'random': random.random(),
}`;

describe('pyodide engine: interpreters from a memory snapshot', () => {
  test('the snapshot is made once in the cache folder, and runs from it are isolated from each other', async () => {
    const first = await run(LEAVE);
    expect(first.error).toBeUndefined();
    const folders = fs.readdirSync(cache).filter((name) => name.startsWith('pyodide-'));
    expect(folders).toHaveLength(1);
    expect(fs.statSync(path.join(cache, folders[0] as string, SNAPSHOT_FILE)).size).toBeGreaterThan(10_000_000);
    // the probe ran on an interpreter from the snapshot too: the lockdown held there
    expect(first.sandbox.enforcement).toBe('full');
    const second = await run(LOOK);
    expect(second.error).toBeUndefined();
    const seen = second.value as Record<string, unknown>;
    expect({ ...seen, random: undefined }).toEqual({
      builtins: false,
      module: false,
      'sys.modules': false,
      recursionlimit: false,
      env: false,
      files: false,
      random: undefined,
    });
    // each interpreter draws fresh entropy, not the snapshot's random state
    expect(seen.random).not.toBe(first.value);
    const third = await run(LOOK);
    expect((third.value as Record<string, unknown>).random).not.toBe(seen.random);
  }, 600_000);

  test("the lockdown holds in an interpreter from the snapshot: Pyodide's bridges are gone", async () => {
    const result = await run(`out = {}
for name in ('js', 'pyodide_js', 'pyodide.ffi', '_pyodide_core'):
    try:
        __import__(name)
        out[name] = 'imported'
    except ImportError as e:
        out[name] = 'refused' if 'pyodide engine' in str(e) else str(e)
return out`);
    expect(result.value).toEqual({
      js: 'refused',
      pyodide_js: 'refused',
      'pyodide.ffi': 'refused',
      _pyodide_core: 'refused',
    });
  }, 300_000);

  // the file system is not in the snapshot: a runner module imported only when a run needs it (ptc test's frozen clock
  // and seeded random) must still be there after a restore
  test('a deterministic run from the snapshot imports the runner module it needs then', async () => {
    const result = await runtime.run(
      runtime.resolve({
        language: 'python',
        program: 'import time, random\nreturn [time.time(), random.random() == random.random()]',
        engine: 'wasm',
        timeoutMs: 120_000,
        deterministic: { epochMs: 1_700_000_000_000, seed: 7 },
      }),
    );
    expect(result.error).toBeUndefined();
    expect(result.value).toEqual([1_700_000_000, false]);
  }, 300_000);
});
