// about: an exception thrown in a timer callback
// expect: exception
// message: thrown in a timer
setTimeout(() => { throw new Error('thrown in a timer'); }, 10);
await new Promise(() => {});
