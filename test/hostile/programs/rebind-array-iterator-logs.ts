// about: replaces Array.prototype[Symbol.iterator] and entries/values before logging and writing
// expect: success
// value: [3,[1,2]]
// logs: ^x 1 \[ 1, 2 \]$
const proto = Array.prototype as unknown as Record<PropertyKey, unknown>;
proto[Symbol.iterator] = function* () { throw new Error('array iteration gone'); };
proto.values = proto.entries = proto.keys = () => { throw new Error('gone'); };
console.log('x', 1, [1, 2]);
process.stdout.write('y\nz');
const v = await tools.echo([1, 2]);
return [await tools.add({ a: 1, b: 2 }), v];
