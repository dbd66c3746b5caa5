// about: closes the child-to-host control descriptor, then returns
// expect: worker-exit
const fs = await import('node:fs');
fs.closeSync(3);
return 1;
