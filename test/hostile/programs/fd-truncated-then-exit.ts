// about: half a frame, then exit
// expect: worker-exit|protocol
const _frame = (text: string | Buffer): Buffer => { const body = typeof text === 'string' ? Buffer.from(text) : text; const h = Buffer.alloc(4); h.writeUInt32BE(body.length); return Buffer.concat([h, body]); };
const fs = await import('node:fs');
const h = Buffer.alloc(4);
h.writeUInt32BE(100);
fs.writeSync(3, Buffer.concat([h, Buffer.from('{"type":"log"')]));
process.exit(0);
