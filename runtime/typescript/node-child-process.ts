import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { encodeFrame, FrameDecoder } from '../channel/frame-codec.js';
import { LIMITS } from '../contract/limits.js';
import type { ChildChannel } from '../protocol/hosted-bindings.js';
import { RunChild, type ReadyVerdict } from '../process/run-child.js';
import type { RunCgroupRequest } from '../sandbox/cgroup.js';

export type { ChildHandlers } from '../process/run-child.js';

export interface NodeChildLaunch {
  // full argv (wrapper, shim, node, flags, bootstrap) for a given private temp dir
  argv(tmpdir: string): string[];
  cwd: string;
  viaShim: boolean;
  // the wrapper puts the child in its own PID namespace (killing it kills every descendant)
  pidNamespace: boolean;
  // the program's temp dir as the program sees it: the sandbox's tmpfs, or (unconfined) the host dir created here
  programTmpdir: string | undefined;
  // bytes for descriptors after the two frame pipes (the seccomp program bubblewrap reads from fd 5)
  feeds: Buffer[];
  diesWithParent: boolean;
  // any sandbox layer applies (the bootstrap then also removes V8 run-time flags and trace_events)
  confined: boolean;
  // the run's own cgroup (sandbox/cgroup.ts), where the host can make one
  cgroup?: RunCgroupRequest | undefined;
  // a host descriptor left open on purpose (the sandbox proof's check that inherited descriptors are closed)
  decoy?: { fd: number; at: number } | undefined;
  // a connection to the run's bindings host, inherited after the frame pipes and the feeds (engine/hosted.ts)
  channel?: ChildChannel | undefined;
}

// The exact first frame the bootstrap sends; anything else before a program is attached is a broken child.
const READY_FRAME = '{"type":"ready"}';

// One fresh Node child: the bootstrap waits, untouched, for its boot frame whether it is a spare or a cold start.
export class NodeChildProcess extends RunChild {
  readonly tmpdir: string;
  readonly confined: boolean;
  readonly bindingsToken: string | undefined;
  // the descriptor the child inherited its bindings host connection on (after the frame pipes and the feeds)
  readonly bindingsFd: number | undefined;
  readonly #decoder = new FrameDecoder(LIMITS.maxFrameBytes);
  #corked = false;

  // Creates the private temp dir and spawns; throws only if the temp dir cannot be created.
  constructor(launch: NodeChildLaunch) {
    const tmpdir = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-run-'));
    super({
      runtimeName: 'Node',
      privateDir: tmpdir,
      viaShim: launch.viaShim,
      launch: {
        argv: launch.argv(tmpdir),
        cwd: launch.cwd,
        env: { ELECTRON_RUN_AS_NODE: '1' },
        extraPipes: 2,
        feeds: launch.feeds,
        ownPidNamespace: launch.pidNamespace,
        diesWithParent: launch.diesWithParent,
        ...(launch.channel === undefined ? {} : { inherit: [launch.channel.socket] }),
        ...(launch.decoy === undefined ? {} : { decoy: launch.decoy }),
      },
      cgroup: launch.cgroup,
    });
    this.tmpdir = launch.programTmpdir ?? tmpdir;
    this.confined = launch.confined;
    // the child holds its own copy now; this process never reads the connection
    launch.channel?.socket.destroy();
    this.bindingsToken = launch.channel?.token;
    this.bindingsFd = launch.channel === undefined ? undefined : 3 + 2 + launch.feeds.length;
    this.#fromChild.on('data', (chunk: Buffer) =>
      this.#decoder.push(chunk, (event) =>
        event.kind === 'frame' ? this.receive(event.text) : this.problem(event.message),
      ),
    );
  }

  get #fromChild(): Readable {
    return this.child.pipes[0] as Readable;
  }

  get #toChild(): Writable {
    return this.child.pipes[1] as Writable;
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

  protected acceptReady(text: string): ReadyVerdict {
    return text === READY_FRAME
      ? { ok: true }
      : { ok: false, kind: 'protocol', message: 'the Node child sent a frame before ready' };
  }
}
