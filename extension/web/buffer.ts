// The browser build's stand-in for Node's Buffer (injected by scripts/build-web-extension.mjs): the runtime's JSON
// size accounting reads only Buffer.byteLength, and the primordials capture Buffer.from and the UTF-8 slice at load.
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
  from: (text: string): Uint8Array => encoder.encode(text),
  prototype: {
    utf8Slice(this: Uint8Array, start: number, end: number): string {
      return decoder.decode(this.subarray(start, end));
    },
  },
};
