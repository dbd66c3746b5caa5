// about: a forged done whose value is over the output cap
// expect: output-limit
const frame = (text: string | Buffer): Buffer => { const body = typeof text === 'string' ? Buffer.from(text) : text; const h = Buffer.alloc(4); h.writeUInt32BE(body.length); return Buffer.concat([h, body]); };
const fs = await import('node:fs');
fs.writeSync(3, frame(JSON.stringify({ type: 'done', value: 'v'.repeat(2_000_000) })));
while (true) {}
