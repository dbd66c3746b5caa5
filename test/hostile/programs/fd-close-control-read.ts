// about: closes the host-to-child control descriptor, then waits on a binding
// expect: timeout|worker-exit|exception
const fs = await import('node:fs');
fs.closeSync(4);
return await tools.add({ a: 1, b: 2 });
