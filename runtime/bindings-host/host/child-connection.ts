import type net from 'node:net';
import { FrameDecoder, encodeFrame } from '../../channel/frame-codec.js';
import { LineDecoder, encodeLine } from '../../channel/line-codec.js';
import { LIMITS } from '../../contract/limits.js';
import { CHANNEL_HELLO_PREFIX } from '../wire.js';

// A hello line is short; anything longer is not a runtime talking.
const MAX_HELLO_BYTES = 200;
// bytes a child may send before its run is opened (the runtime opens it before handing the program over)
const MAX_EARLY_BYTES = 16 * 1024 * 1024;

export type Codec = 'frames' | 'lines';

export interface BoundHandlers {
  // the frames of one received chunk, in order
  onFrames(texts: string[]): void;
  onProblem(message: string): void;
  onClose(): void;
}

// One program child's bindings connection, from its hello line to its run: early bytes are held until the run
// that owns the connection is opened, then decoded in the child's framing.
export class ChildConnection {
  token: string | undefined;
  #hello = Buffer.alloc(0);
  #early: Buffer[] = [];
  #earlyBytes = 0;
  #handlers: BoundHandlers | undefined;
  #push: ((chunk: Buffer) => void) | undefined;
  #codec: Codec = 'frames';
  #corked = false;
  #closed = false;

  constructor(
    readonly socket: net.Socket,
    private readonly onHello: (connection: ChildConnection) => void,
  ) {
    socket.on('data', (chunk: Buffer) => this.#receive(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      this.#closed = true;
      this.#handlers?.onClose();
    });
  }

  get closed(): boolean {
    return this.#closed;
  }

  // Hands the connection to its run; held bytes are decoded first.
  bind(codec: Codec, handlers: BoundHandlers): void {
    this.#codec = codec;
    this.#handlers = handlers;
    const emitTo = (texts: string[], problem: { message: string } | undefined): void => {
      if (texts.length > 0) handlers.onFrames(texts);
      if (problem !== undefined) handlers.onProblem(problem.message);
    };
    if (codec === 'frames') {
      const decoder = new FrameDecoder(LIMITS.maxFrameBytes);
      this.#push = (chunk) => {
        const texts: string[] = [];
        let problem: { message: string } | undefined;
        decoder.push(chunk, (event) => (event.kind === 'frame' ? texts.push(event.text) : (problem ??= event)));
        emitTo(texts, problem);
      };
    } else {
      const decoder = new LineDecoder(LIMITS.maxFrameBytes);
      this.#push = (chunk) => {
        const texts: string[] = [];
        let problem: { message: string } | undefined;
        decoder.push(chunk, (event) => (event.kind === 'frame' ? texts.push(event.text) : (problem ??= event)));
        emitTo(texts, problem);
      };
    }
    const early = this.#early;
    this.#early = [];
    for (const chunk of early) this.#push(chunk);
    if (this.#closed) handlers.onClose();
  }

  // Queues one frame for the child; frames of one tick leave in one write.
  send(text: string): void {
    if (this.#closed) return;
    if (!this.#corked) {
      this.#corked = true;
      this.socket.cork();
      process.nextTick(() => {
        this.#corked = false;
        this.socket.uncork();
      });
    }
    this.socket.write(this.#codec === 'frames' ? encodeFrame(text) : encodeLine(text));
  }

  close(): void {
    this.socket.destroy();
  }

  #receive(chunk: Buffer): void {
    if (this.token === undefined) {
      this.#hello = Buffer.concat([this.#hello, chunk]);
      const nl = this.#hello.indexOf(0x0a);
      if (nl < 0) {
        if (this.#hello.length > MAX_HELLO_BYTES) this.socket.destroy();
        return;
      }
      const line = this.#hello.subarray(0, nl).toString('utf8');
      const rest = this.#hello.subarray(nl + 1);
      this.#hello = Buffer.alloc(0);
      if (!line.startsWith(CHANNEL_HELLO_PREFIX)) return void this.socket.destroy();
      this.token = line.slice(CHANNEL_HELLO_PREFIX.length);
      this.onHello(this);
      if (rest.length > 0) this.#receive(rest);
      return;
    }
    if (this.#push !== undefined) return this.#push(chunk);
    this.#earlyBytes += chunk.length;
    if (this.#earlyBytes > MAX_EARLY_BYTES) return void this.socket.destroy();
    this.#early.push(chunk);
  }
}
