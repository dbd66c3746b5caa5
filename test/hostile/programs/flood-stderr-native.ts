// about: endless raw writes to fd 2
// expect: output-limit
const fs = await import('node:fs');
for (;;) fs.writeSync(2, 'stderr flood line\n');
