// about: removes queueMicrotask, setTimeout, setImmediate and process.nextTick before writing with a callback
// expect: success
// value: 21
// logs: ^with callback$
const g = globalThis as Record<string, unknown>;
for (const name of ['queueMicrotask', 'setTimeout', 'setImmediate', 'setInterval']) g[name] = () => { throw new Error(`${name} gone`); };
(process as unknown as Record<string, unknown>).nextTick = () => { throw new Error('nextTick gone'); };
let called = false;
process.stdout.write('with callback\n', () => { called = true; });
const v = await tools.add({ a: 10, b: 11 });
if (!called) throw new Error('write callback never ran');
return v;
