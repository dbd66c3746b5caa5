import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import { Readable } from 'node:stream';
import {
  BufferPrototypeUtf8Slice as utf8Slice,
  JSONStringify as stringify,
  ReflectApply,
  setIndex,
  StringPrototypeSlice as slice,
  uncurryThis,
  withOwnApply,
} from '../../json/primordials.js';
import { chunkEnd, TEXT_CHUNK } from '../../output/ledger.js';
import { NODE_CHILD_READ_FD, NODE_CHILD_WRITE_FD } from '../../protocol/node-fds.js';
import type { ReplyHandler } from './namespaces.js';

export { errorFrame } from './describe-thrown.js';

const writeSync = fs.writeSync;
const byteLength = Buffer.byteLength;
const allocUnsafe = Buffer.allocUnsafe;
const atomicsWait = Atomics.wait;
// prototype methods too: a program that patches Buffer.prototype must not break the channel (hostile corpus)
const utf8Write = uncurryThis(
  (Buffer.prototype as unknown as { utf8Write: (this: Buffer, text: string, offset: number, length: number) => number })
    .utf8Write,
);
const bufferCopy = uncurryThis(Buffer.prototype.copy) as (
  source: Buffer,
  target: Buffer,
  targetStart: number,
  sourceStart: number,
  sourceEnd: number,
) => number;
const sleeper = new Int32Array(new SharedArrayBuffer(4));
const readableRead = Readable.prototype.read;

const defineProperty = Object.defineProperty;
const getPrototypeOf = Object.getPrototypeOf;
const EACCES = -(os.constants.errno.EACCES ?? 13);

// Unix-domain sockets live on the filesystem, so the network namespace does not hide them, and Node 20's
// permission model does not check connect()/bind(): without this a confined program reaches e.g. a docker or
// ssh-agent socket. Every Unix socket handle shares the Pipe prototype; its connect/bind are replaced for good
// (non-configurable, before any model code runs), so no later path to that prototype finds the originals.
export function denyUnixSockets(channel: unknown): boolean {
  const handle = (channel as { _handle?: unknown } | null)?._handle;
  if (handle === null || typeof handle !== 'object') return false;
  const proto = getPrototypeOf(handle) as object | null;
  if (proto === null) return false;
  for (const name of ['connect', 'bind']) {
    defineProperty(proto, name, { value: () => EACCES, writable: false, enumerable: false, configurable: false });
  }
  return true;
}

// Synchronous sends: a frame written before a hot loop or a crash is already in the host's pipe.
export function sendFrame(text: string): void {
  sendFrames([text]);
}

// Several frames in one write (one wake-up of the host instead of one per frame), in order.
// No arrays of our own and indexed loops only: the program may have patched Array.prototype (push, the iterator,
// even accessors on indices, which a write to a new index would call).
export function sendFrames(texts: readonly string[]): void {
  sendFramesTo(NODE_CHILD_WRITE_FD, texts);
}

// The same on another descriptor (the bindings host connection); throws what the write throws (EPIPE: it is gone).
export function sendFramesTo(fd: number, texts: readonly string[]): void {
  const count = texts.length;
  let total = 0;
  for (let i = 0; i < count; i++) total += 4 + byteLength(texts[i] as string, 'utf8');
  const frame = allocUnsafe(total);
  let at = 0;
  for (let i = 0; i < count; i++) {
    // encoded straight into the frame with the captured native writer (Buffer.from would look up buf.utf8Write)
    const length = utf8Write(frame, texts[i] as string, at + 4, total - at - 4);
    frame[at] = (length >>> 24) & 0xff;
    frame[at + 1] = (length >>> 16) & 0xff;
    frame[at + 2] = (length >>> 8) & 0xff;
    frame[at + 3] = length & 0xff;
    at += 4 + length;
  }
  writeAll(frame, total, fd);
}

// The 4-byte big-endian length that opens a frame written in parts.
function writeLength(total: number): void {
  const header = allocUnsafe(4);
  header[0] = (total >>> 24) & 0xff;
  header[1] = (total >>> 16) & 0xff;
  header[2] = (total >>> 8) & 0xff;
  header[3] = total & 0xff;
  writeAll(header, 4);
}

// One frame whose body is `head`, then parts[0..count), then `tail`: a large completion is written a part at a time
// (each encoded into a small buffer) instead of joined into one string and encoded whole, so sending it costs the
// size of a part beyond the text itself.
export function sendFrameParts(head: string, parts: readonly string[], count: number, tail: string): void {
  let total = byteLength(head, 'utf8') + byteLength(tail, 'utf8');
  for (let i = 0; i < count; i++) total += byteLength(parts[i] as string, 'utf8');
  writeLength(total);
  writeText(head);
  for (let i = 0; i < count; i++) writeText(parts[i] as string);
  writeText(tail);
}

// One log frame. A long entry is escaped and written a slice at a time (the slices of the ledger's own measure), so a
// 64 MB line costs one slice of memory beyond itself instead of an escaped copy and its encoding.
export function sendLogFrame(stream: 'stdout' | 'stderr', text: string, open: boolean): void {
  const end = open ? ',"open":true}' : '}';
  if (text.length <= TEXT_CHUNK) return sendFrame(`{"type":"log","stream":"${stream}","text":${stringify(text)}${end}`);
  const head = `{"type":"log","stream":"${stream}","text":"`;
  const tail = `"${end}`;
  let total = byteLength(head, 'utf8') + byteLength(tail, 'utf8');
  for (let at = 0; at < text.length;) {
    const end = chunkEnd(text, at);
    total += byteLength(stringify(slice(text, at, end)), 'utf8') - 2;
    at = end;
  }
  writeLength(total);
  writeText(head);
  for (let at = 0; at < text.length;) {
    const end = chunkEnd(text, at);
    const escaped = stringify(slice(text, at, end));
    writeText(slice(escaped, 1, escaped.length - 1));
    at = end;
  }
  writeText(tail);
}

function writeText(text: string): void {
  const length = byteLength(text, 'utf8');
  if (length === 0) return;
  const buffer = allocUnsafe(length);
  utf8Write(buffer, text, 0, length);
  writeAll(buffer, length);
}

function writeAll(buffer: Buffer, total: number, fd: number = NODE_CHILD_WRITE_FD): void {
  let offset = 0;
  while (offset < total) {
    try {
      offset += writeSync(fd, buffer, offset, total - offset);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      // the host is behind: wait a moment instead of spinning
      atomicsWait(sleeper, 0, 0, 1);
    }
  }
}

// Reads host frames asynchronously from the dedicated read descriptor; `onChunkEnd` runs after the frames of
// each chunk (to send, in one write, what they queued). Runs after model code: captured Buffer methods, counted
// chunk lists, offsets instead of subarray (whose species look-up the program controls).
export function receiveFrames(
  onFrame: (text: string) => void,
  onClose: () => void,
  onChunkEnd: () => void = () => undefined,
  fd: number = NODE_CHILD_READ_FD,
): net.Socket {
  const socket = new net.Socket({ fd, readable: true, writable: false });
  // net.Socket.prototype.read reaches Readable's with `Function.prototype.call`, which the program may replace;
  // what it adds (restarting an `onread` buffer socket) does not apply to this one
  Object.defineProperty(socket, 'read', {
    value: (n?: number): unknown => ReflectApply(readableRead, socket, [n]),
    writable: true,
    configurable: true,
  });
  const readableState = (socket as unknown as { _readableState: { readingMore: boolean } })._readableState;
  let chunks: Buffer[] = [];
  let chunkCount = 0;
  // unread bytes start at chunks[0][offset]
  let offset = 0;
  let buffered = 0;
  let need = -1;
  // joins the unread bytes into one buffer (only when a header or body spans chunks)
  const gather = (): Buffer => {
    if (chunkCount === 1) return chunks[0] as Buffer;
    const all = allocUnsafe(buffered);
    let at = 0;
    for (let i = 0; i < chunkCount; i++) {
      const chunk = chunks[i] as Buffer;
      const from = i === 0 ? offset : 0;
      at += bufferCopy(chunk, all, at, from, chunk.length);
    }
    chunks = [all];
    chunkCount = 1;
    offset = 0;
    return all;
  };
  const take = (chunk: Buffer): void => {
    setIndex(chunks, chunkCount++, chunk);
    buffered += chunk.length;
    while (true) {
      if (need < 0) {
        if (buffered < 4) return;
        const all = gather();
        need =
          (((all[offset] as number) << 24) |
            ((all[offset + 1] as number) << 16) |
            ((all[offset + 2] as number) << 8) |
            (all[offset + 3] as number)) >>>
          0;
        offset += 4;
        buffered -= 4;
      }
      if (buffered < need) return;
      const all = gather();
      const text = utf8Slice(all, offset, offset + need);
      offset += need;
      buffered -= need;
      need = -1;
      if (buffered === 0) {
        chunks = [];
        chunkCount = 0;
        offset = 0;
      }
      onFrame(text);
    }
  };
  socket.on(
    'data',
    withOwnApply((chunk: Buffer) => {
      // marks a read-ahead as already scheduled: in flowing mode the handle keeps reading anyway, and scheduling it
      // goes through process.nextTick, which the program may have replaced
      readableState.readingMore = true;
      try {
        take(chunk);
      } finally {
        onChunkEnd();
      }
    }),
  );
  const closed = withOwnApply(() => onClose());
  socket.on('close', closed);
  socket.on('error', closed);
  return socket;
}

// Where calls go: straight to the run's bindings host when the boot names its connection, else (and once that host
// is gone) the control channel, where the runtime answers them.
export function callRouter(bindingsFd: number | undefined): { send(texts: string[]): void; lose(): void } {
  let fd = bindingsFd;
  return {
    send(texts) {
      if (fd !== undefined) {
        try {
          return sendFramesTo(fd, texts);
        } catch {
          // the host's end closed (EPIPE): the runtime takes over
          fd = undefined;
        }
      }
      sendFrames(texts);
    },
    lose() {
      fd = undefined;
    },
  };
}

// Replies from the run's bindings host arrive on its own connection (`parse` is the child's own reading of a host
// frame); that connection's closing is the runtime's to explain.
export function receiveHostReplies(
  fd: number,
  parse: (text: string) => unknown,
  handleReply: ReplyHandler,
  flush: () => void,
): void {
  receiveFrames(
    (text) => {
      const frame = parse(text) as { type?: unknown } | null | undefined;
      if (frame !== null && typeof frame === 'object' && frame.type === 'reply')
        handleReply(frame as Parameters<ReplyHandler>[0]);
    },
    () => undefined,
    flush,
    fd,
  );
}
