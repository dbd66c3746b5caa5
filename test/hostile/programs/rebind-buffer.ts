// about: breaks Buffer methods the control channel might use
// expect: success
// value: 42
// logs: ^logged after the patch$
Buffer.from = (() => { throw new Error('from gone'); }) as unknown as typeof Buffer.from;
Buffer.alloc = (() => { throw new Error('alloc gone'); }) as unknown as typeof Buffer.alloc;
Buffer.concat = (() => { throw new Error('concat gone'); }) as unknown as typeof Buffer.concat;
Buffer.prototype.writeUInt32BE = function () { throw new Error('writeUInt32BE gone'); } as never;
Buffer.prototype.copy = function () { throw new Error('copy gone'); } as never;
console.log('logged after the patch');
const sum = await tools.add({ a: 20, b: 22 });
return sum;
