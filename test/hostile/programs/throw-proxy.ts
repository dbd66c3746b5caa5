// about: throws a Proxy whose every trap throws
// expect: exception
const boom = () => { throw new Error('trap'); };
throw new Proxy({}, { get: boom, getPrototypeOf: boom, ownKeys: boom, has: boom, getOwnPropertyDescriptor: boom });
