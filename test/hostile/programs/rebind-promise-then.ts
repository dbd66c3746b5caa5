// about: patches Promise.prototype.then and the Promise global
// expect: success
// value: 5
const realThen = Promise.prototype.then;
const sum = await tools.add({ a: 2, b: 3 });
Promise.prototype.then = function () { throw new Error('then is gone'); } as typeof realThen;
(globalThis as { Promise: unknown }).Promise = function () { throw new Error('no promises'); };
return sum;
