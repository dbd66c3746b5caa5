// about: loads the domain module (must still work), then replaces process.emit and throws from a timer
// expect: exception
// message: ^Error: thrown from a timer after process\.emit was replaced
// logs: ^domain loaded$
const domain = await import('node:domain');
console.log(typeof domain.create === 'function' ? 'domain loaded' : 'no domain');
(process as unknown as Record<string, unknown>).emit = () => false;
setTimeout(() => { throw new Error('thrown from a timer after process.emit was replaced'); }, 10);
await new Promise(() => {});
