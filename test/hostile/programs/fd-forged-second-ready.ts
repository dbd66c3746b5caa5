// about: a second ready frame
// expect: protocol
const frame = (text: string | Buffer): Buffer => { const body = typeof text === 'string' ? Buffer.from(text) : text; const h = Buffer.alloc(4); h.writeUInt32BE(body.length); return Buffer.concat([h, body]); };
const fs = await import('node:fs');
fs.writeSync(3, frame('{"type":"ready"}'));
while (true) {}
