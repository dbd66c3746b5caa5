// about: forged log frames past the output cap are metered by the host
// expect: output-limit
const frame = (text: string | Buffer): Buffer => { const body = typeof text === 'string' ? Buffer.from(text) : text; const h = Buffer.alloc(4); h.writeUInt32BE(body.length); return Buffer.concat([h, body]); };
const fs = await import('node:fs');
const f = frame(JSON.stringify({ type: 'log', stream: 'stdout', text: 'F'.repeat(10_000) }));
for (let i = 0; i < 300; i++) fs.writeSync(3, f);
while (true) {}
