// about: a zero-length frame
// expect: protocol
const fs = await import('node:fs');
fs.writeSync(3, Buffer.alloc(4));
while (true) {}
