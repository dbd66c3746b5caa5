import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CodeRunSpec } from '../api.js';
import { RunSession } from '../engine/run-session.js';
import type { SandboxCapabilities } from '../sandbox/probe.js';
import { PYTHON_SHIM, PythonChildProcess } from './python-child-process.js';
import type { PythonExecutable } from './python-executable.js';
import { superviseChild } from './supervise.js';
import { unconfinedReport } from '../sandbox/plan.js';

// Python has no permission model: these OS layers, applied by the runner itself, confine files and processes.
export const FILESYSTEM_MECHANISM = 'mount-namespace (read-only root, private temp dir)';
export const PROCESS_MECHANISM = 'seccomp (no exec/fork, capabilities dropped)';

export interface ProvenLayers {
  filesystem: boolean;
  childProcess: boolean;
}

// A real attempt under the real layers: each layer counts only if the program's attempts were actually refused.
const probeProgram = (secret: string, outside: string): string => `
import os
seen = {}
def attempt(name, action):
    try:
        action()
        seen[name] = "allowed"
    except BaseException:
        seen[name] = "denied"
def fork():
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
def spawn():
    os.waitpid(os.posix_spawn("/bin/sh", ["sh", "-c", "exit 0"], {}), 0)
attempt("read", lambda: open(${JSON.stringify(secret)}).read())
attempt("write", lambda: open(${JSON.stringify(path.join(outside, 'written'))}, "w").write("x"))
attempt("fork", fork)
attempt("spawn", spawn)
attempt("tmp", lambda: open(os.path.join(__import__("tempfile").gettempdir(), "probe"), "w").write("x"))
return seen`;

async function probe(python: PythonExecutable, caps: SandboxCapabilities): Promise<ProvenLayers> {
  const none: ProvenLayers = { filesystem: false, childProcess: false };
  if (caps.platform !== 'linux') return none;
  const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-probe-'));
  const secret = path.join(outside, 'secret');
  fs.writeFileSync(secret, 'secret');
  const wrapper = caps.namespacePrefix === undefined ? [] : [...caps.namespacePrefix, '--mount'];
  const confine = { filesystem: caps.namespacePrefix !== undefined, childProcess: true };
  const spec: CodeRunSpec = {
    resolved: true,
    language: 'python',
    program: probeProgram(secret, outside),
    bindings: [],
    timeoutMs: 30_000,
    maxOutputBytes: 1 << 20,
    memoryMb: 512,
    cwd: os.tmpdir(),
    sandbox: 'best-effort',
    signal: undefined,
    onLog: undefined,
    maxPendingCalls: 1,
  };
  let child: PythonChildProcess | undefined;
  try {
    child = new PythonChildProcess({
      python,
      prefix: [...wrapper, ...(wrapper.length > 0 ? PYTHON_SHIM : [])],
      cwd: os.tmpdir(),
      viaShim: wrapper.length > 0,
      pidNamespace: wrapper.includes('--pid'),
      confine,
      preload: false,
    });
    const result = await superviseChild(spec, new RunSession(spec, unconfinedReport()), child);
    const seen = result.value as Record<string, string> | undefined;
    if (result.error !== undefined || seen === undefined) return none;
    return {
      filesystem:
        confine.filesystem && seen.read === 'denied' && seen.write === 'denied' && seen.tmp === 'allowed' && !fs.existsSync(path.join(outside, 'written')),
      childProcess: seen.fork === 'denied' && seen.spawn === 'denied',
    };
  } catch {
    return none;
  } finally {
    await child?.discard();
    fs.rmSync(outside, { recursive: true, force: true });
  }
}

const proven = new Map<string, Promise<ProvenLayers>>();

// Probed once per interpreter and namespace setup, then cached for the life of the host.
export function provenLayers(python: PythonExecutable, caps: SandboxCapabilities): Promise<ProvenLayers> {
  const key = JSON.stringify([python.path, caps.namespacePrefix ?? null]);
  let layers = proven.get(key);
  if (layers === undefined) {
    layers = probe(python, caps);
    proven.set(key, layers);
  }
  return layers;
}
