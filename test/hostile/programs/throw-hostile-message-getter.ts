// about: throws an Error whose message and stack getters throw
// expect: exception
const e = new Error('x');
Object.defineProperty(e, 'message', { get() { throw new Error('message getter'); } });
Object.defineProperty(e, 'stack', { get() { throw new Error('stack getter'); } });
Object.defineProperty(e, 'name', { get() { throw new Error('name getter'); } });
throw e;
