// about: a forged call with an out-of-order id
// expect: protocol
// calls: 0
const frame = (text: string | Buffer): Buffer => { const body = typeof text === 'string' ? Buffer.from(text) : text; const h = Buffer.alloc(4); h.writeUInt32BE(body.length); return Buffer.concat([h, body]); };
const fs = await import('node:fs');
fs.writeSync(3, frame(JSON.stringify({ type: 'call', id: 99, global: 'tools', name: 'echo', args: 1 })));
while (true) {}
