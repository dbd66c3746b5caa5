// The browser build's stand-in for Node's Buffer (injected by scripts/build-web-extension.mjs, and what `node:buffer`
// resolves to there): the runtime's JSON size accounting reads only Buffer.byteLength, the primordials capture
// Buffer.from and the UTF-8 slice at load, and amaro decodes its WebAssembly module from base64.
const encoder = new TextEncoder();
const decoder = new TextDecoder();

function byteLength(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3; // a lone surrogate is written as U+FFFD, three bytes, as Node does
  }
  return bytes;
}

export const Buffer = {
  byteLength,
  // UTF-8, or base64 (amaro's embedded WebAssembly module)
  from: (text: string, encoding?: 'utf8' | 'base64'): Uint8Array =>
    encoding === 'base64' ? Uint8Array.from(atob(text), (c) => c.charCodeAt(0)) : encoder.encode(text),
  prototype: {
    utf8Slice(this: Uint8Array, start: number, end: number): string {
      return decoder.decode(this.subarray(start, end));
    },
  },
};
