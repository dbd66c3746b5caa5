// about: __proto__, constructor and my-tool are ordinary bindings
// expect: success
// value: ["proto-fn","constructor-fn","dashed",null]
const t = tools as unknown as Record<string, (a: unknown) => Promise<unknown>>;
return [await t['__proto__']({}), await t['constructor']({}), await t['my-tool']({}), Object.getPrototypeOf(tools)];
