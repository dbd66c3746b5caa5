import { execFile } from 'node:child_process';
import fs from 'node:fs';
import type { Readable } from 'node:stream';
import { LIMITS } from '../contract/limits.js';
import type { Spare } from './spare.js';
import { createRunCgroup, type RunCgroup, type RunCgroupRequest } from '../sandbox/cgroup.js';
import type { ChildChannel } from '../protocol/hosted-bindings.js';
import { launchChild, type ExitInfo, type LaunchedChild } from './launch.js';
import { settlesWithin, within } from './timers.js';

// What the run needs from the process once it owns it.
export interface ChildHandlers {
  onFrame(text: string): void;
  onProtocolError(message: string): void;
}

// The launch settings both backends' children share (each backend's launch type adds its own).
export interface ChildLaunchCommon {
  cwd: string;
  viaShim: boolean;
  // the wrapper puts the child in its own PID namespace (killing it kills every descendant)
  pidNamespace: boolean;
  diesWithParent: boolean;
  // bytes for descriptors after the backend's pipes (the seccomp program bubblewrap reads)
  feeds: Buffer[];
  // the run's own cgroup (sandbox/cgroup.ts), where the host can make one
  cgroup?: RunCgroupRequest | undefined;
  // a host descriptor left open on purpose (the sandbox proof's check that inherited descriptors are closed)
  decoy?: { fd: number; at: number } | undefined;
  // a connection to the run's bindings host, inherited after the pipes and the feeds (engine/fresh-child.ts
  // withChannel)
  channel?: ChildChannel | undefined;
}

export interface RunChildOptions {
  // 'Node' or 'Python', for messages
  runtimeName: string;
  // the child's private directory: removed if the launch fails and when the child is discarded
  privateDir: string;
  launch: ChildLaunchCommon;
  argv: string[];
  env: Record<string, string>;
  // the backend's own pipes after stdio (fd 3, …)
  extraPipes: number;
}

// The child's first frame: ready, a protocol violation, or a well-formed refusal (it could not set itself up).
export type ReadyVerdict = { ok: true } | { ok: false; kind: 'protocol' | 'unusable'; message: string };

// One fresh child for one run, launched on demand (cold) or ahead of time (spare) through the same code, so a
// program cannot tell them apart: ready once, attached to exactly one run, then discarded with its private dir.
export abstract class RunChild implements Spare {
  readonly viaShim: boolean;
  readonly ready: Promise<boolean>;
  readonly closed: Promise<ExitInfo>;
  readonly spawnError: Promise<Error>;
  // why the child is not usable, when it failed before serving a run
  bootProblem: string | undefined;
  readonly bindingsToken: string | undefined;
  // the descriptor the child inherited its bindings host connection on (after the backend's pipes and the feeds)
  readonly bindingsFd: number | undefined;
  protected readonly child: LaunchedChild;
  readonly #runtimeName: string;
  readonly #privateDir: string;
  #resolveReady: (ok: boolean) => void = () => undefined;
  #readySeen = false;
  #exited = false;
  #exit: ExitInfo | undefined;
  #handlers: ChildHandlers | undefined;
  #stopped: Promise<void> | undefined;
  #discarded: Promise<void> | undefined;
  readonly #cgroup: RunCgroup | undefined;

  // Spawns; throws only if the process cannot be launched (the private dir and cgroup are then removed).
  constructor(options: RunChildOptions) {
    this.#runtimeName = options.runtimeName;
    this.#privateDir = options.privateDir;
    const { launch } = options;
    this.viaShim = launch.viaShim;
    this.ready = new Promise<boolean>((resolve) => (this.#resolveReady = resolve));
    let cgroup: RunCgroup | undefined;
    try {
      cgroup = launch.cgroup === undefined ? undefined : createRunCgroup(launch.cgroup.host, launch.cgroup.limits);
      this.child = launchChild({
        argv: options.argv,
        cwd: launch.cwd,
        env: options.env,
        extraPipes: options.extraPipes,
        feeds: launch.feeds,
        ownPidNamespace: launch.pidNamespace,
        diesWithParent: launch.diesWithParent,
        ...(launch.channel === undefined ? {} : { inherit: [launch.channel.socket] }),
        ...(launch.decoy === undefined ? {} : { decoy: launch.decoy }),
        ...(cgroup === undefined ? {} : { cgroupProcs: cgroup.procs }),
      });
    } catch (error) {
      fs.rmSync(options.privateDir, { recursive: true, force: true });
      void cgroup?.remove();
      throw error;
    }
    this.#cgroup = cgroup;
    // the child holds its own copy now; this process never reads the connection
    launch.channel?.socket.destroy();
    this.bindingsToken = launch.channel?.token;
    this.bindingsFd = launch.channel === undefined ? undefined : 3 + options.extraPipes + launch.feeds.length;
    this.closed = this.child.closed.then((info) => {
      this.#exited = true;
      this.#exit = info;
      this.#resolveReady(false);
      return info;
    });
    this.spawnError = this.child.spawnError;
    // bounds an idle spare; a child serving a run is bounded by the run's own startup limit (engine/deadline.ts)
    const startup = setTimeout(() => {
      if (!this.#readySeen && this.#handlers === undefined)
        this.problem(`the ${this.#runtimeName} child did not become ready within ${LIMITS.startupMs} ms`);
    }, LIMITS.startupMs);
    startup.unref();
    void this.ready.then(() => clearTimeout(startup));
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get stdout(): Readable {
    return this.child.stdout;
  }

  get stderr(): Readable {
    return this.child.stderr;
  }

  get exit(): ExitInfo | undefined {
    return this.#exit;
  }

  // The run's cgroup, while it exists (its accounting is read before discard removes it).
  get cgroup(): RunCgroup | undefined {
    return this.#cgroup;
  }

  // The kernel ended the run because it reached its cgroup's memory bound.
  memoryBoundReached(): number | undefined {
    return this.#cgroup?.oomKilled() === true ? this.#cgroup.limits.memoryBytes : undefined;
  }

  protected get exited(): boolean {
    return this.#exited;
  }

  alive(): boolean {
    if (this.#exited || this.#stopped !== undefined || this.child.pid === undefined) return false;
    try {
      process.kill(this.child.pid, 0);
      return true;
    } catch {
      return false;
    }
  }

  // Gives the process to one run: every later frame goes to `handlers`.
  attach(handlers: ChildHandlers): void {
    if (this.#handlers !== undefined) throw new Error(`a ${this.#runtimeName} child serves exactly one run`);
    this.#handlers = handlers;
  }

  killTree(): void {
    this.child.killTree();
  }

  // Kills the process tree and waits (bounded) until its pipes closed.
  stop(): Promise<void> {
    this.#stopped ??= (async () => {
      this.#resolveReady(false);
      this.child.killTree();
      // bubblewrap arms its parent-death signal only after it forked the sandbox's init: a kill in between (a spare
      // discarded while starting) orphans that init and the program under it, holding our pipes; its argv names the
      // private dir, so it can still be found
      if (!(await settlesWithin(this.closed, ESCAPE_CHECK_MS))) this.child.killMarked(this.#privateDir);
      if (!(await settlesWithin(this.closed, LIMITS.graceMs))) {
        // whatever still holds the pipes must not keep this process alive: it reads end-of-file and exits
        this.child.killMarked(this.#privateDir);
        this.child.release();
      }
    })();
    return this.#stopped;
  }

  // Stops the process tree and removes the private dir and the run's cgroup.
  discard(): Promise<void> {
    this.#discarded ??= (async () => {
      await this.stop();
      await removeDir(this.#privateDir);
      await this.#cgroup?.remove();
      // a child still dying on a loaded machine may write into its dir while it is removed: once more after it closed
      if (fs.existsSync(this.#privateDir)) {
        await within(this.closed, 10_000, undefined);
        await removeDir(this.#privateDir);
      }
    })();
    return this.#discarded;
  }

  // One decoded frame from the child: its readiness handshake first, then the run's traffic.
  protected receive(text: string): void {
    if (!this.#readySeen) {
      this.#readySeen = true;
      const verdict = this.acceptReady(text);
      if (verdict.ok) this.#resolveReady(true);
      else if (verdict.kind === 'protocol') this.problem(verdict.message);
      else {
        this.bootProblem ??= verdict.message;
        this.#resolveReady(false);
      }
      return;
    }
    if (this.#handlers === undefined) return this.problem(`an idle ${this.#runtimeName} spare sent a frame`);
    this.#handlers.onFrame(text);
  }

  // Judges the child's first frame.
  protected abstract acceptReady(text: string): ReadyVerdict;

  protected problem(message: string): void {
    if (this.#handlers !== undefined) return this.#handlers.onProtocolError(message);
    // not serving a run yet: this process is unusable
    this.bootProblem ??= message;
    this.#resolveReady(false);
    this.child.killTree();
  }
}

// Node's rm walks by full path and gives up on trees deeper than PATH_MAX (ENAMETOOLONG), which an unconfined
// program can build in its temp dir; coreutils rm walks by descriptor, so it is the fallback.
async function removeDir(dir: string): Promise<void> {
  await fs.promises.rm(dir, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined);
  if (!fs.existsSync(dir)) return;
  await new Promise<void>((resolve) =>
    execFile('rm', ['-rf', '--', dir], { timeout: 60_000, killSignal: 'SIGKILL' }, () => resolve()),
  );
}

// A killed child's pipes close within milliseconds; one still open after this is held by a process the kill missed.
const ESCAPE_CHECK_MS = 250;
