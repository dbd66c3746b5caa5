// about: a thrown Error whose stack getter never returns
// expect: timeout|exception
const e = new Error('spin');
Object.defineProperty(e, 'stack', { get() { for (;;) {} } });
throw e;
