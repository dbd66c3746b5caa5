// about: 3 MB on fd 1 without a newline
// expect: output-limit
const fs = await import('node:fs');
fs.writeSync(1, 'y'.repeat(3_000_000));
await new Promise((r) => setTimeout(r, 200));
return 'done';
