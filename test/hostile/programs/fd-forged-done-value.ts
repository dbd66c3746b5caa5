// about: a forged done with a value is just a way to return that value
// expect: success
// value: "forged"
const frame = (text: string | Buffer): Buffer => { const body = typeof text === 'string' ? Buffer.from(text) : text; const h = Buffer.alloc(4); h.writeUInt32BE(body.length); return Buffer.concat([h, body]); };
const fs = await import('node:fs');
fs.writeSync(3, frame(JSON.stringify({ type: 'done', value: 'forged' })));
while (true) {}
