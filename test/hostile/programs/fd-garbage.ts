// about: ASCII garbage on the control descriptor (reads as an oversized length)
// expect: protocol
// message: length
const fs = await import('node:fs');
fs.writeSync(3, 'garbage garbage garbage');
while (true) {}
