import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { createRuntime } from '../../../runtime/index.js';
import { sandboxHost } from '../../../runtime/sandbox/probe.js';
import { resolvePython } from '../../../runtime/python/python-executable.js';

// The sandbox holds for interpreters wherever users keep them: under /tmp (a cached Node of code-server or a test
// harness), /dev/shm, a home directory (nvm, pyenv, uv). The sandbox's own /tmp tmpfs used to shadow an interpreter
// that lived under /tmp, so its runs reported partial; each location here must give `full` with a working run.
const host = await sandboxHost();
const made: string[] = [];
afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

function placeNode(parent: string): string {
  const dir = fs.mkdtempSync(path.join(parent, 'ptc-node-'));
  made.push(dir);
  fs.mkdirSync(path.join(dir, 'bin'));
  const bin = path.join(dir, 'bin', 'node');
  fs.copyFileSync(process.execPath, bin);
  fs.chmodSync(bin, 0o755);
  return bin;
}

const program =
  'const fs = await import("node:fs"); return { version: process.version, tmp: fs.readdirSync("/tmp").length >= 0 };';

describe.runIf(host.bwrap !== undefined)('interpreters outside the usual places', () => {
  const homes = [os.tmpdir(), '/dev/shm', os.homedir()].filter((dir) => fs.existsSync(dir));
  for (const parent of homes) {
    test(`a Node under ${parent} runs with the sandbox full`, async () => {
      const nodePath = placeNode(parent);
      const runtime = createRuntime({ nodePath, spares: 0 });
      try {
        const r = await runtime.run(runtime.resolve({ language: 'typescript', program, sandbox: 'required' }));
        expect(r.error, JSON.stringify(r.sandbox)).toBeUndefined();
        expect(r.value).toEqual({ version: process.version, tmp: true });
        expect(r.sandbox.enforcement).toBe('full');
      } finally {
        await runtime.dispose();
      }
    });
  }

  test('a Python virtual environment under the temp dir runs with the sandbox full', async () => {
    const found = await resolvePython(undefined);
    if (!found.ok) throw new Error(found.message);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-venv-'));
    made.push(dir);
    execFileSync(found.python.path, ['-m', 'venv', '--without-pip', path.join(dir, 'venv')]);
    const pythonPath = path.join(dir, 'venv', 'bin', 'python');
    // a package only this environment has: the run must import it from the venv's site-packages under /tmp
    const site = execFileSync(pythonPath, ['-c', 'import site; print(site.getsitepackages()[0])'], {
      encoding: 'utf8',
    }).trim();
    fs.writeFileSync(path.join(site, 'ptc_venv_marker.py'), 'WHERE = "venv"\n');
    const runtime = createRuntime({ pythonPath, spares: 0 });
    try {
      const r = await runtime.run(
        runtime.resolve({
          language: 'python',
          program: 'import ptc_venv_marker\nreturn ptc_venv_marker.WHERE',
          sandbox: 'required',
        }),
      );
      expect(r.error, JSON.stringify(r.sandbox)).toBeUndefined();
      expect(r.value).toBe('venv');
      expect(r.sandbox.enforcement).toBe('full');
    } finally {
      await runtime.dispose();
    }
  });
});
