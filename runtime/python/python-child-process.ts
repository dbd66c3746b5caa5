import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { encodeLine, LineDecoder } from '../channel/line-codec.js';
import { LIMITS } from '../contract/limits.js';
import { decodeLossless } from '../json/lossless.js';
import { RunChild, type ChildLaunchCommon, type ReadyVerdict } from '../process/run-child.js';
import { PythonBootAckSchema, type PythonBootFrame } from '../protocol/python-wire.js';
import type { PythonExecutable } from './python-executable.js';

export type { ChildHandlers } from '../process/run-child.js';

export interface PythonChildLaunch extends ChildLaunchCommon {
  python: PythonExecutable;
  // full argv (wrapper, interpreter, flags, entry) given the staged runner dir
  argv(runnerDir: string): string[];
  // base64 seccomp programs the runner installs on itself before boot-ack
  filters: string[];
  // the program's temp dir and working directory as it sees them: the sandbox's tmpfs, or (unconfined) host dirs
  programTmpdir: string | undefined;
  programCwd: string | undefined;
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
  // private per-process dir: runner/ (staged runner), tmp/ (the unconfined program's temp dir)
  readonly base: string;
  readonly tmpdir: string;
  // the working directory the run frame asks for; undefined = the run's requested cwd
  readonly programCwd: string | undefined;
  readonly #decoder = new LineDecoder(LIMITS.maxFrameBytes);
  readonly #confining: boolean;

  // Stages the runner and spawns; throws only if the private dir cannot be created or written.
  constructor(launch: PythonChildLaunch) {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-py-'));
    const argv = launch.argv(stageRunner(base, launch));
    super({ runtimeName: 'Python', privateDir: base, launch, argv, env: {}, extraPipes: 1 });
    this.base = base;
    this.tmpdir = launch.programTmpdir ?? path.join(base, 'tmp');
    this.programCwd = launch.programCwd;
    this.#confining = launch.filters.length > 0;
    this.#channel.on('data', (chunk: Buffer) =>
      this.#decoder.push(chunk, (event) =>
        event.kind === 'frame' ? this.receive(event.text) : this.problem(event.message),
      ),
    );
    // a frame cut off by the child's death is not a protocol violation: the exit status explains the run
    const boot: PythonBootFrame = {
      type: 'boot',
      filters: launch.filters,
      tmpdir: this.tmpdir,
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
    if (ack === undefined || !ack.success)
      return { ok: false, kind: 'protocol', message: 'the Python child sent a frame before boot-ack' };
    if (!this.#confining || ack.data.confined) return { ok: true };
    const detail = ack.data.error === undefined ? '' : `: ${ack.data.error}`;
    return { ok: false, kind: 'unusable', message: `the Python runner could not install its seccomp filters${detail}` };
  }
}

// Writes runner/ and tmp/ into the private dir and returns the runner dir; the dir is removed if staging fails.
function stageRunner(base: string, launch: PythonChildLaunch): string {
  const runnerDir = path.join(base, 'runner');
  try {
    fs.mkdirSync(path.join(base, 'tmp'), { mode: 0o700 });
    // readable by the sandbox's unprivileged uid through its read-only bind; base itself stays 0700 on the host
    fs.mkdirSync(runnerDir, { mode: 0o755 });
    fs.chmodSync(runnerDir, 0o755);
    // a program that rewrites its runner damages only its own run: every run gets a fresh copy
    for (const [name, bytes] of launch.python.runnerFiles)
      fs.writeFileSync(path.join(runnerDir, name), bytes, { mode: 0o644 });
  } catch (error) {
    fs.rmSync(base, { recursive: true, force: true });
    throw error;
  }
  return runnerDir;
}
