import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { encodeLine, LineDecoder } from '../channel/line-codec.js';
import { LIMITS } from '../contract/limits.js';
import type { Spare } from '../engine/spare-pool.js';
import { decodeLossless } from '../json/lossless.js';
import { launchChild, type ExitInfo, type LaunchedChild } from '../process/launch.js';
import { PythonBootAckSchema, type PythonBootFrame } from '../protocol/python-wire.js';
import { PYTHON_FLAGS, type PythonExecutable } from './python-executable.js';

export interface ChildHandlers {
  onFrame(text: string): void;
  onProtocolError(message: string): void;
}

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

// A spare slower than this to boot is treated as dead.
const STARTUP_LIMIT_MS = 60_000;

// One fresh CPython child: staged runner files in a private dir, launched, booted (confined) and then idle until
// its one run sends `run`. Cold starts and spares take the same path, so a program cannot tell them apart.
export class PythonChildProcess implements Spare {
  // private per-process dir: runner/ (staged runner), tmp/ (the program's temp dir), root/ (confined root mountpoint)
  readonly base: string;
  readonly tmpdir: string;
  readonly viaShim: boolean;
  readonly ready: Promise<boolean>;
  readonly closed: Promise<ExitInfo>;
  readonly spawnError: Promise<Error>;
  // why the child is not usable, when boot failed (e.g. a confinement layer could not be applied)
  bootProblem: string | undefined;
  readonly #child: LaunchedChild;
  readonly #decoder = new LineDecoder(LIMITS.maxFrameBytes);
  #resolveReady: (ok: boolean) => void = () => undefined;
  #acked = false;
  #exited = false;
  #exit: ExitInfo | undefined;
  #handlers: ChildHandlers | undefined;
  #discarded: Promise<void> | undefined;
  readonly #confine: { filesystem: boolean; childProcess: boolean };

  // Stages the runner and spawns; throws only if the private dir cannot be created or written.
  constructor(launch: PythonChildLaunch) {
    this.#confine = launch.confine;
    this.base = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-py-'));
    this.tmpdir = path.join(this.base, 'tmp');
    this.viaShim = launch.viaShim;
    this.ready = new Promise<boolean>((resolve) => (this.#resolveReady = resolve));
    const runnerDir = path.join(this.base, 'runner');
    try {
      fs.mkdirSync(this.tmpdir, { mode: 0o700 });
      fs.mkdirSync(path.join(this.base, 'root'), { mode: 0o700 });
      fs.mkdirSync(runnerDir, { mode: 0o700 });
      // a program that rewrites its runner damages only its own run: every run gets a fresh copy
      for (const [name, bytes] of launch.python.runnerFiles) fs.writeFileSync(path.join(runnerDir, name), bytes);
      const argv = [...launch.prefix, launch.python.path, ...PYTHON_FLAGS, path.join(runnerDir, launch.python.entryFile)];
      this.#child = launchChild({ argv, cwd: launch.cwd, env: {}, extraPipes: 1, ownPidNamespace: launch.pidNamespace });
    } catch (error) {
      fs.rmSync(this.base, { recursive: true, force: true });
      throw error;
    }
    this.closed = this.#child.closed.then((info) => {
      this.#exited = true;
      this.#exit = info;
      this.#resolveReady(false);
      return info;
    });
    this.spawnError = this.#child.spawnError;
    const startup = setTimeout(() => {
      if (!this.#acked) this.#problem(`the Python child did not boot within ${STARTUP_LIMIT_MS} ms`);
    }, STARTUP_LIMIT_MS);
    startup.unref();
    void this.ready.then(() => clearTimeout(startup));
    this.#channel.on('data', (chunk: Buffer) =>
      this.#decoder.push(chunk, (event) => (event.kind === 'frame' ? this.#onFrame(event.text) : this.#problem(event.message))),
    );
    // a frame cut off by the child's death is not a protocol violation: the exit status explains the run
    const boot: PythonBootFrame = { type: 'boot', confine: launch.confine, tmpdir: this.tmpdir, root: path.join(this.base, 'root'), sitePackages: launch.python.sitePackages, preload: launch.preload };
    this.send(JSON.stringify(boot));
  }

  get pid(): number | undefined {
    return this.#child.pid;
  }

  get stdout(): Readable {
    return this.#child.stdout;
  }

  get stderr(): Readable {
    return this.#child.stderr;
  }

  get exit(): ExitInfo | undefined {
    return this.#exit;
  }

  get #channel(): Readable & Writable {
    return this.#child.pipes[0] as Readable & Writable;
  }

  alive(): boolean {
    if (this.#exited || this.#discarded !== undefined || this.#child.pid === undefined) return false;
    try {
      process.kill(this.#child.pid, 0);
      return true;
    } catch {
      return false;
    }
  }

  // Gives the process to one run: every later frame goes to `handlers`.
  attach(handlers: ChildHandlers): void {
    if (this.#handlers !== undefined) throw new Error('a Python child serves exactly one run');
    this.#handlers = handlers;
  }

  send(text: string): void {
    if (!this.#exited) this.#channel.write(encodeLine(text));
  }

  killTree(): void {
    this.#child.killTree();
  }

  // Kills the process tree, waits (bounded) until its pipes closed, and removes the private dir.
  discard(): Promise<void> {
    this.#discarded ??= (async () => {
      this.#resolveReady(false);
      this.#child.killTree();
      await Promise.race([this.closed, delay(LIMITS.graceMs)]);
      await removeDir(this.base);
      // a child still dying on a loaded machine may write into tmp/ while it is removed: once more after it closed
      if (fs.existsSync(this.base)) {
        await Promise.race([this.closed, delay(10_000)]);
        await removeDir(this.base);
      }
    })();
    return this.#discarded;
  }

  #onFrame(text: string): void {
    if (!this.#acked) {
      const decoded = decodeLossless(text);
      const ack = decoded.ok ? PythonBootAckSchema.safeParse(decoded.value) : undefined;
      if (ack === undefined || !ack.success) return this.#problem('the Python child sent a frame before boot-ack');
      this.#acked = true;
      const missing = (['filesystem', 'childProcess'] as const).filter((layer) => this.#confine[layer] && !ack.data[layer]);
      if (missing.length > 0) {
        this.bootProblem = `the Python runner could not confine ${missing.join(' and ')}${ack.data.error === undefined ? '' : `: ${ack.data.error}`}`;
        this.#resolveReady(false);
        return;
      }
      this.#resolveReady(true);
      return;
    }
    if (this.#handlers === undefined) return this.#problem('an idle Python spare sent a frame');
    this.#handlers.onFrame(text);
  }

  #problem(message: string): void {
    if (this.#handlers !== undefined) return this.#handlers.onProtocolError(message);
    // not serving a run yet: this process is unusable
    this.bootProblem ??= message;
    this.#resolveReady(false);
    this.#child.killTree();
  }
}

function removeDir(dir: string): Promise<void> {
  return fs.promises.rm(dir, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
