// about: replaces the console's methods and the global console, then prints through process.stdout.write
// expect: success
// value: 2
// logs: ^through the stream$
console.log('first');
const c = console as unknown as Record<string, unknown>;
for (const m of ['log', 'info', 'warn', 'error']) {
  try { c[m] = () => { throw new Error('console gone'); }; } catch { /* frozen */ }
}
(globalThis as Record<string, unknown>).console = { log: () => { throw new Error('fake console'); } };
process.stdout.write('through the stream\n');
return await tools.add({ a: 1, b: 1 });
