// about: a forged done frame claiming a host-only failure kind
// expect: protocol
const frame = (text: string | Buffer): Buffer => { const body = typeof text === 'string' ? Buffer.from(text) : text; const h = Buffer.alloc(4); h.writeUInt32BE(body.length); return Buffer.concat([h, body]); };
const fs = await import('node:fs');
fs.writeSync(3, frame(JSON.stringify({ type: 'done', error: { kind: 'timeout', message: 'forged' } })));
while (true) {}
