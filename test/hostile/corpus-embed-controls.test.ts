import crypto from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { runUnlocked } from '../helpers/pyodide-guest.js';
import { intrinsicsFingerprint } from './lib/host-guard.js';
import { loadCorpus } from './lib/corpus-format.js';

// The controls of the corpus's attacks on pyodide's embedding (py-embed-*): each program, run in a Pyodide
// interpreter WITHOUT the lockdown (Pyodide as it comes, in this process), must reach through every attempt it makes.
// So each attempt is a working attack, and its failure inside the engine (corpus-wasm.test.ts, where the program's
// value says nothing was reached) is the lockdown's doing, not a broken probe.
const programs = path.join(path.dirname(fileURLToPath(import.meta.url)), 'programs');
const embed = loadCorpus(programs).filter((entry) => entry.name.startsWith('py-embed-'));

// every attempt each program makes, as it names them
const ATTEMPTS: Record<string, string[]> = {
  'py-embed-host-functions.py': [
    'meta-path-ctypes',
    'create-builtin-ctypes',
    'gc-original-create-builtin',
    'create-builtin-core',
    'fresh-posix-system',
    'create-dynamic',
    'js-webassembly',
    'module-exports',
  ],
  'py-embed-proto-pollution.py': [
    'js-object-prototype',
    'ffi-array-prototype',
    'meta-path-js',
    'meta-path-ffi',
    'create-builtin-core',
    'jsproxy-instance',
    'jsexception-class',
  ],
  'py-embed-shared-memory.py': [
    'js-atomics-wait',
    'meta-path-atomics-wait',
    'ffi-atomics-wait',
    'core-atomics-wait',
    'linear-memory',
  ],
};

describe('attacks on the pyodide embedding: controls without the lockdown', () => {
  test('every py-embed-* program is listed here, with its own control', () => {
    expect(embed.map((entry) => entry.name).sort()).toEqual(Object.keys(ATTEMPTS).sort());
    for (const entry of embed) expect(entry.control).toBeDefined();
  });

  for (const entry of embed) {
    test(`${entry.name}: every attempt reaches the embedding, and the program's own control holds`, async () => {
      const program = entry.source.replaceAll('{{TOKEN}}', crypto.randomBytes(8).toString('hex'));
      expect(program).not.toMatch(/\{\{[A-Z_]+\}\}/);
      const fingerprint = intrinsicsFingerprint();
      const done = await runUnlocked(program);
      // the pollution attempts clean up after themselves: this process's intrinsics are as they were
      expect(intrinsicsFingerprint()).toBe(fingerprint);
      expect(done.error).toBeUndefined();
      const value = done.value as { control: boolean; reached: string[] };
      expect(value.control).toBe(true);
      expect(value.reached).toEqual(ATTEMPTS[entry.name]);
    }, 300_000);
  }
});
