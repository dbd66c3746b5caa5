// about: plants throwing getters on Object.prototype for names a runtime reads (then, value, get, toJSON, type, ok…)
// expect: success
// value: 7
// logs: ^still logging$
for (const name of ['then', 'value', 'get', 'set', 'toJSON', 'type', 'ok', 'kind', 'text', 'message', 'location', 'depth', 'stream']) {
  Object.defineProperty(Object.prototype, name, { __proto__: null, get() { throw new Error(`Object.prototype.${name} read`); }, configurable: true });
}
console.log('still logging');
const sum = await tools.add({ a: 2, b: 3 });
// primitives only: resolving any promise with an object reads its `then`, which this program itself poisoned
const text = await tools.echo('ab');
return sum + text.length;
