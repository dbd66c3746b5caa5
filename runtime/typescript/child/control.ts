import fs from 'node:fs';
import net from 'node:net';
import { NODE_CHILD_READ_FD, NODE_CHILD_WRITE_FD } from '../../protocol/node-fds.js';

const writeSync = fs.writeSync;
const bufferFrom = Buffer.from;
const allocUnsafe = Buffer.allocUnsafe;
const atomicsWait = Atomics.wait;
// prototype methods too: a program that patches Buffer.prototype must not break the channel (hostile corpus)
const reflectApply = Reflect.apply;
const typedArraySet = Uint8Array.prototype.set;
const sleeper = new Int32Array(new SharedArrayBuffer(4));
const ArrayCtor = Array;

// Synchronous sends: a frame written before a hot loop or a crash is already in the host's pipe.
export function sendFrame(text: string): void {
  sendFrames([text]);
}

// Several frames in one write (one wake-up of the host instead of one per frame), in order.
// Indexed loops only: the program may have patched Array.prototype's iterator or push.
export function sendFrames(texts: readonly string[]): void {
  const count = texts.length;
  const bodies: Buffer[] = new ArrayCtor(count);
  let total = 0;
  for (let i = 0; i < count; i++) {
    const body = bufferFrom(texts[i] as string, 'utf8');
    bodies[i] = body;
    total += 4 + body.length;
  }
  const frame = allocUnsafe(total);
  let at = 0;
  for (let i = 0; i < count; i++) {
    const body = bodies[i] as Buffer;
    const length = body.length;
    frame[at] = (length >>> 24) & 0xff;
    frame[at + 1] = (length >>> 16) & 0xff;
    frame[at + 2] = (length >>> 8) & 0xff;
    frame[at + 3] = length & 0xff;
    reflectApply(typedArraySet, frame, [body, at + 4]);
    at += 4 + length;
  }
  let offset = 0;
  while (offset < total) {
    try {
      offset += writeSync(NODE_CHILD_WRITE_FD, frame, offset, total - offset);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      // the host is behind: wait a moment instead of spinning
      atomicsWait(sleeper, 0, 0, 1);
    }
  }
}

// Reads host frames asynchronously from the dedicated read descriptor; `onChunkEnd` runs after the frames of
// each chunk (to send, in one write, what they queued).
export function receiveFrames(onFrame: (text: string) => void, onClose: () => void, onChunkEnd: () => void = () => undefined): net.Socket {
  const socket = new net.Socket({ fd: NODE_CHILD_READ_FD, readable: true, writable: false });
  let chunks: Buffer[] = [];
  let buffered = 0;
  let need = -1;
  const take = (chunk: Buffer): void => {
    chunks.push(chunk);
    buffered += chunk.length;
    while (true) {
      if (need < 0) {
        if (buffered < 4) return;
        const all = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
        need = all.readUInt32BE(0);
        chunks = [all.subarray(4)];
        buffered -= 4;
      }
      if (buffered < need) return;
      const all = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
      const body = all.subarray(0, need);
      chunks = all.length > need ? [all.subarray(need)] : [];
      buffered -= need;
      need = -1;
      onFrame(body.toString('utf8'));
    }
  };
  socket.on('data', (chunk: Buffer) => {
    try {
      take(chunk);
    } finally {
      onChunkEnd();
    }
  });
  socket.on('close', onClose);
  socket.on('error', onClose);
  return socket;
}
