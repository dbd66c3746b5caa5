// about: a frame whose body is not UTF-8
// expect: protocol
// message: UTF-8
const frame = (text: string | Buffer): Buffer => { const body = typeof text === 'string' ? Buffer.from(text) : text; const h = Buffer.alloc(4); h.writeUInt32BE(body.length); return Buffer.concat([h, body]); };
const fs = await import('node:fs');
fs.writeSync(3, frame(Buffer.from([0x7b, 0xff, 0xfe, 0x7d])));
while (true) {}
