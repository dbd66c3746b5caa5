// about: a length header of 2^32-1
// expect: protocol
// message: length
const fs = await import('node:fs');
fs.writeSync(3, Buffer.from([0xff, 0xff, 0xff, 0xff]));
while (true) {}
