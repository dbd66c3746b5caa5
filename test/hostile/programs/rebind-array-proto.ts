// about: breaks Array.prototype methods used by naive serializers
// expect: success
// value: [1,[2,3]]
const ok = await tools.echo([1, [2, 3]]);
for (const m of ['push', 'map', 'join', 'forEach', 'pop', 'shift', 'slice', 'concat'] as const) {
  (Array.prototype as unknown as Record<string, unknown>)[m] = () => { throw new Error(m + ' gone'); };
}
console.log('after patch');
return ok;
