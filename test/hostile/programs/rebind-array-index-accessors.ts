// about: plants throwing accessors for indices 0–9 on Array.prototype (every write to a new array index calls them)
// expect: success
// value: 3
// logs: ^after the accessors$
for (let i = 0; i < 10; i++) {
  Object.defineProperty(Array.prototype, i, {
    __proto__: null,
    get() { throw new Error(`Array.prototype[${i}] read`); },
    set() { throw new Error(`Array.prototype[${i}] written`); },
    configurable: true,
  } as PropertyDescriptor);
}
console.log('after the accessors');
return await tools.add({ a: 1, b: 2 });
