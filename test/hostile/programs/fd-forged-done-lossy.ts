// about: a forged done whose value is not lossless JSON (-0)
// expect: invalid-output|protocol
const frame = (text: string | Buffer): Buffer => { const body = typeof text === 'string' ? Buffer.from(text) : text; const h = Buffer.alloc(4); h.writeUInt32BE(body.length); return Buffer.concat([h, body]); };
const fs = await import('node:fs');
fs.writeSync(3, frame('{"type":"done","value":-0}'));
while (true) {}
