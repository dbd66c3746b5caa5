import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { encodeLine, LineDecoder } from '../channel/line-codec.js';
import { LIMITS } from '../contract/limits.js';
import { decodeLossless } from '../json/lossless.js';
import { RunChild, type ReadyVerdict } from '../process/run-child.js';
import { PythonBootAckSchema, type PythonBootFrame } from '../protocol/python-wire.js';
import { PYTHON_FLAGS, type PythonExecutable } from './python-executable.js';

export type { ChildHandlers } from '../process/run-child.js';

export interface PythonChildLaunch {
  python: PythonExecutable;
  // wrapper + shim, prepended to the interpreter's argv
  prefix: string[];
  cwd: string;
  viaShim: boolean;
  pidNamespace: boolean;
  // OS layers the runner applies before boot-ack
  confine: { filesystem: boolean; childProcess: boolean };
  // a spare loads everything it may need while idle; a cold start loads only what its program needs
  preload: boolean;
}

// PID 1 of the namespace: reaps orphans and reports a signal death as 128+N. The interpreter runs in a subshell
// with the real stderr while the waiting shell's own stderr is /dev/null, so "CPU time limit exceeded" and the
// like never reach the program's logs.
export const PYTHON_SHIM = ['/bin/sh', '-c', 'exec 9>&2 2>/dev/null; ("$@" 2>&9 9>&-); exit $?', 'ptc-init'];

// One fresh CPython child: staged runner files in a private dir, launched, booted (confined) and then idle until
// its one run sends `run`. Cold starts and spares take the same path, so a program cannot tell them apart.
export class PythonChildProcess extends RunChild {
  // private per-process dir: runner/ (staged runner), tmp/ (the program's temp dir), root/ (confined root mountpoint)
  readonly base: string;
  readonly tmpdir: string;
  readonly #decoder = new LineDecoder(LIMITS.maxFrameBytes);
  readonly #confine: { filesystem: boolean; childProcess: boolean };

  // Stages the runner and spawns; throws only if the private dir cannot be created or written.
  constructor(launch: PythonChildLaunch) {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-py-'));
    const argv = stageRunner(base, launch);
    super({
      runtimeName: 'Python',
      privateDir: base,
      viaShim: launch.viaShim,
      launch: { argv, cwd: launch.cwd, env: {}, extraPipes: 1, ownPidNamespace: launch.pidNamespace },
    });
    this.base = base;
    this.tmpdir = path.join(base, 'tmp');
    this.#confine = launch.confine;
    this.#channel.on('data', (chunk: Buffer) =>
      this.#decoder.push(chunk, (event) => (event.kind === 'frame' ? this.receive(event.text) : this.problem(event.message))),
    );
    // a frame cut off by the child's death is not a protocol violation: the exit status explains the run
    const boot: PythonBootFrame = {
      type: 'boot',
      confine: launch.confine,
      tmpdir: this.tmpdir,
      root: path.join(base, 'root'),
      sitePackages: launch.python.sitePackages,
      preload: launch.preload,
    };
    this.send(JSON.stringify(boot));
  }

  get #channel(): Readable & Writable {
    return this.child.pipes[0] as Readable & Writable;
  }

  send(text: string): void {
    if (!this.exited) this.#channel.write(encodeLine(text));
  }

  protected acceptReady(text: string): ReadyVerdict {
    const decoded = decodeLossless(text);
    const ack = decoded.ok ? PythonBootAckSchema.safeParse(decoded.value) : undefined;
    if (ack === undefined || !ack.success) return { ok: false, kind: 'protocol', message: 'the Python child sent a frame before boot-ack' };
    const missing = (['filesystem', 'childProcess'] as const).filter((layer) => this.#confine[layer] && !ack.data[layer]);
    if (missing.length === 0) return { ok: true };
    const detail = ack.data.error === undefined ? '' : `: ${ack.data.error}`;
    return { ok: false, kind: 'unusable', message: `the Python runner could not confine ${missing.join(' and ')}${detail}` };
  }
}

// Writes runner/, tmp/ and root/ into the private dir and returns the argv; the dir is removed if staging fails.
function stageRunner(base: string, launch: PythonChildLaunch): string[] {
  const runnerDir = path.join(base, 'runner');
  try {
    fs.mkdirSync(path.join(base, 'tmp'), { mode: 0o700 });
    fs.mkdirSync(path.join(base, 'root'), { mode: 0o700 });
    fs.mkdirSync(runnerDir, { mode: 0o700 });
    // a program that rewrites its runner damages only its own run: every run gets a fresh copy
    for (const [name, bytes] of launch.python.runnerFiles) fs.writeFileSync(path.join(runnerDir, name), bytes);
  } catch (error) {
    fs.rmSync(base, { recursive: true, force: true });
    throw error;
  }
  return [...launch.prefix, launch.python.path, ...PYTHON_FLAGS, path.join(runnerDir, launch.python.entryFile)];
}
