import fs from 'node:fs';
import { encodeFrame } from '../../channel/frame-codec.js';

const sleeper = new Int32Array(new SharedArrayBuffer(4));

// Writes frames to the runtime synchronously: a note written just before a handler loops forever is already in the
// runtime's pipe. Every host → runtime write goes through here, so writes never interleave.
export function writeFramesSync(fd: number, texts: readonly string[]): void {
  if (texts.length === 0) return;
  const buffer = texts.length === 1 ? encodeFrame(texts[0] as string) : Buffer.concat(texts.map(encodeFrame));
  let offset = 0;
  while (offset < buffer.length) {
    try {
      offset += fs.writeSync(fd, buffer, offset, buffer.length - offset);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // the runtime went away: nobody is listening any more
      if (code === 'EPIPE' || code === 'EBADF') return;
      if (code !== 'EAGAIN') throw error;
      // the runtime is behind: wait a moment instead of spinning
      Atomics.wait(sleeper, 0, 0, 1);
    }
  }
}
