import { StringDecoder } from 'node:string_decoder';
import type { Readable } from 'node:stream';

// Native writes to fd 1/2 (bypassing the patched streams) arrive as raw bytes: decode as UTF-8 and split into lines.
export function captureLines(stream: Readable, budget: () => number, onLine: (line: string) => void): () => void {
  const decoder = new StringDecoder('utf8');
  let pending: string[] = [];
  let pendingLength = 0;
  const feed = (text: string): void => {
    let start = 0;
    let nl = text.indexOf('\n');
    while (nl >= 0) {
      pending.push(text.slice(start, nl));
      const line = pending.join('');
      pending = [];
      pendingLength = 0;
      onLine(line);
      start = nl + 1;
      nl = text.indexOf('\n', start);
    }
    if (start < text.length) {
      const tail = text.slice(start);
      pending.push(tail);
      pendingLength += tail.length;
      // a newline-free flood is emitted (and cut by the ledger) instead of buffered without bound
      if (pendingLength > budget()) {
        const line = pending.join('');
        pending = [];
        pendingLength = 0;
        onLine(line);
      } else if (pending.length > 1024) {
        pending = [pending.join('')];
      }
    }
  };
  stream.on('data', (chunk: Buffer) => feed(decoder.write(chunk)));
  // flushes the unterminated tail at settlement
  return () => {
    const rest = decoder.end();
    if (rest.length > 0) feed(rest);
    if (pending.length > 0) {
      const line = pending.join('');
      pending = [];
      pendingLength = 0;
      onLine(line);
    }
  };
}
