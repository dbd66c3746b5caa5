import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { encodeFrame, FrameDecoder } from '../channel/frame-codec.js';
import { LIMITS } from '../contract/limits.js';
import type { Spare } from '../engine/spare-pool.js';
import { launchChild, type ExitInfo, type LaunchedChild } from '../process/launch.js';

// What the run needs from the process once it owns it.
export interface ChildHandlers {
  onFrame(text: string): void;
  onProtocolError(message: string): void;
}

export interface NodeChildLaunch {
  // full argv (wrapper, shim, node, flags, bootstrap) for a given private temp dir
  argv(tmpdir: string): string[];
  cwd: string;
  viaShim: boolean;
  // the wrapper puts the child in its own PID namespace (killing it kills every descendant)
  pidNamespace: boolean;
}

// The exact first frame the bootstrap sends; anything else before a program is attached is a broken child.
const READY_FRAME = '{"type":"ready"}';
// A spare slower than this to start is treated as dead (a loaded machine still gets a generous margin).
const STARTUP_LIMIT_MS = 60_000;

// One fresh Node child, launched either on demand (cold) or ahead of time (spare). Both paths run the same code,
// so a program cannot tell them apart: the bootstrap waits, untouched, for its boot frame either way.
export class NodeChildProcess implements Spare {
  readonly tmpdir: string;
  readonly viaShim: boolean;
  readonly ready: Promise<boolean>;
  readonly #child: LaunchedChild;
  readonly #decoder = new FrameDecoder(LIMITS.maxFrameBytes);
  #resolveReady: (ok: boolean) => void = () => undefined;
  #isReady = false;
  #exited = false;
  #handlers: ChildHandlers | undefined;
  #discarded: Promise<void> | undefined;
  #exit: ExitInfo | undefined;
  #corked = false;
  readonly closed: Promise<ExitInfo>;
  readonly spawnError: Promise<Error>;

  // Creates the private temp dir and spawns; throws only if the temp dir cannot be created.
  constructor(launch: NodeChildLaunch) {
    this.tmpdir = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-run-'));
    this.viaShim = launch.viaShim;
    this.ready = new Promise<boolean>((resolve) => (this.#resolveReady = resolve));
    try {
      this.#child = launchChild({ argv: launch.argv(this.tmpdir), cwd: launch.cwd, env: { ELECTRON_RUN_AS_NODE: '1' }, extraPipes: 2, ownPidNamespace: launch.pidNamespace });
    } catch (error) {
      fs.rmSync(this.tmpdir, { recursive: true, force: true });
      throw error;
    }
    this.closed = this.#child.closed.then((info) => {
      this.#exited = true;
      this.#exit = info;
      this.#resolveReady(false);
      return info;
    });
    this.spawnError = this.#child.spawnError;
    // a cold start serving a run is bounded by the run's own deadline instead
    const startup = setTimeout(() => {
      if (this.#handlers === undefined) this.#problem(`the Node child did not start within ${STARTUP_LIMIT_MS} ms`);
    }, STARTUP_LIMIT_MS);
    startup.unref();
    void this.ready.then(() => clearTimeout(startup));
    this.#fromChild.on('data', (chunk: Buffer) =>
      this.#decoder.push(chunk, (event) => (event.kind === 'frame' ? this.#onFrame(event.text) : this.#problem(event.message))),
    );
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

  get #fromChild(): Readable {
    return this.#child.pipes[0] as Readable;
  }

  get #toChild(): Writable {
    return this.#child.pipes[1] as Writable;
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

  // Gives the process to one run: later frames go to `handlers`; a ready frame still to come is consumed here.
  attach(handlers: ChildHandlers): void {
    if (this.#handlers !== undefined) throw new Error('a Node child serves exactly one run');
    this.#handlers = handlers;
  }

  // Frames sent while handling one chunk of the child's frames (all replies resolved in the same microtask drain)
  // leave in one write: corked until the next tick.
  send(text: string): void {
    const stream = this.#toChild;
    if (!this.#corked) {
      this.#corked = true;
      stream.cork();
      process.nextTick(() => {
        this.#corked = false;
        stream.uncork();
      });
    }
    stream.write(encodeFrame(text));
  }

  killTree(): void {
    this.#child.killTree();
  }

  // Kills the process tree, waits (bounded) until its pipes closed, and removes the private temp dir.
  discard(): Promise<void> {
    this.#discarded ??= (async () => {
      this.#resolveReady(false);
      this.#child.killTree();
      await Promise.race([this.closed, delay(LIMITS.graceMs)]);
      await fs.promises.rm(this.tmpdir, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined);
    })();
    return this.#discarded;
  }

  #onFrame(text: string): void {
    if (!this.#isReady) {
      if (text !== READY_FRAME) return this.#problem('the Node child sent a frame before ready');
      this.#isReady = true;
      this.#resolveReady(true);
      return;
    }
    if (this.#handlers === undefined) return this.#problem('an idle spare sent a frame');
    this.#handlers.onFrame(text);
  }

  #problem(message: string): void {
    if (this.#handlers !== undefined) return this.#handlers.onProtocolError(message);
    // not serving a run yet: this process is unusable
    this.#resolveReady(false);
    this.#child.killTree();
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
