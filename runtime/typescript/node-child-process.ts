import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { encodeFrame, FrameDecoder } from '../channel/frame-codec.js';
import { LIMITS } from '../contract/limits.js';
import { RunChild, type ChildLaunchCommon, type ReadyVerdict } from '../process/run-child.js';

export type { ChildHandlers } from '../process/run-child.js';

export interface NodeChildLaunch extends ChildLaunchCommon {
  // full argv (wrapper, shim, node, flags, bootstrap) for a given private temp dir
  argv(tmpdir: string): string[];
  // the program's temp dir as the program sees it: the sandbox's tmpfs, or (unconfined) the host dir created here
  programTmpdir: string | undefined;
  // any sandbox layer applies (the bootstrap then also removes V8 run-time flags and trace_events)
  confined: boolean;
}

// The exact first frame the bootstrap sends; anything else before a program is attached is a broken child.
const READY_FRAME = '{"type":"ready"}';

// One fresh Node child: the bootstrap waits, untouched, for its boot frame whether it is a spare or a cold start.
export class NodeChildProcess extends RunChild {
  readonly tmpdir: string;
  readonly confined: boolean;
  readonly #decoder = new FrameDecoder(LIMITS.maxFrameBytes);
  #corked = false;

  // Creates the private temp dir and spawns; throws only if the temp dir cannot be created.
  constructor(launch: NodeChildLaunch) {
    const tmpdir = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-run-'));
    super({
      runtimeName: 'Node',
      privateDir: tmpdir,
      launch,
      argv: launch.argv(tmpdir),
      env: { ELECTRON_RUN_AS_NODE: '1' },
      extraPipes: 2,
    });
    this.tmpdir = launch.programTmpdir ?? tmpdir;
    this.confined = launch.confined;
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
