// about: breaks Map and Set (prototype methods and constructors) with binding calls in flight
// expect: success
// value: {"sum":[3,7,11],"deep":{"a":[1,{"b":2}]}}
// calls: 4
const calls = [tools.add({ a: 1, b: 2 }), tools.add({ a: 3, b: 4 }), tools.add({ a: 5, b: 6 })];
for (const C of [Map, Set, WeakMap, WeakSet]) {
  for (const m of ['get', 'set', 'has', 'add', 'delete', 'clear', 'forEach']) {
    (C.prototype as unknown as Record<string, unknown>)[m] = () => { throw new Error(`${C.name}.${m} gone`); };
  }
}
(globalThis as Record<string, unknown>).Map = null;
(globalThis as Record<string, unknown>).Set = null;
const deep = await tools.echo({ a: [1, { b: 2 }] });
return { sum: [await calls[0], await calls[1], await calls[2]], deep };
