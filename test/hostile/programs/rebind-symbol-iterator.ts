// about: breaks Array iteration and Symbol.hasInstance
// expect: success
// value: {"list":[1,2,3]}
const v = await tools.echo({ list: [1, 2, 3] });
(Array.prototype as unknown as Record<symbol, unknown>)[Symbol.iterator] = function* () { throw new Error('iteration gone'); };
Object.defineProperty(Object, Symbol.hasInstance, { value: () => true });
return v;
