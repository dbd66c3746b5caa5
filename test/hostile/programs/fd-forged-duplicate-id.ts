// about: a forged call reusing the id of a real pending call
// expect: protocol
// message: id
const frame = (text: string | Buffer): Buffer => { const body = typeof text === 'string' ? Buffer.from(text) : text; const h = Buffer.alloc(4); h.writeUInt32BE(body.length); return Buffer.concat([h, body]); };
const fs = await import('node:fs');
void tools.slow({ ms: 2000 });
fs.writeSync(3, frame(JSON.stringify({ type: 'call', id: 1, global: 'tools', name: 'echo', args: 'dup' })));
await new Promise(() => {});
