// about: replaces every Reflect function and Function.prototype[Symbol.hasInstance]-adjacent statics
// expect: success
// value: ["ok",9,true]
// logs: ^a 1 \{ b: 2 \}$
for (const m of Object.getOwnPropertyNames(Reflect)) {
  (Reflect as unknown as Record<string, unknown>)[m] = () => { throw new Error(`Reflect.${m} gone`); };
}
console.log('a', 1, { b: 2 });
let typed = false;
try {
  await tools.fail({});
} catch (e) {
  typed = e instanceof ToolCallError;
}
return ['ok', await tools.add({ a: 4, b: 5 }), typed];
