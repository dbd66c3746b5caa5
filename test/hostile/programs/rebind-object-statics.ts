// about: replaces Object.keys/entries/getOwnPropertyNames/getOwnPropertyDescriptor/getPrototypeOf/is/create
// expect: success
// value: {"a":{"b":[1,"x",null,true]},"n":-1.5}
const O = Object as unknown as Record<string, unknown>;
for (const m of ['keys', 'entries', 'values', 'getOwnPropertyNames', 'getOwnPropertyDescriptor', 'getOwnPropertySymbols', 'getPrototypeOf', 'is', 'create', 'freeze', 'assign']) {
  O[m] = () => { throw new Error(`Object.${m} gone`); };
}
(Array as unknown as Record<string, unknown>).isArray = () => false;
(Number as unknown as Record<string, unknown>).isFinite = () => true;
const back = await tools.echo({ a: { b: [1, 'x', null, true] }, n: -1.5 });
console.log('echoed');
return back;
