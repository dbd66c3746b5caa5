// about: 10 000 concurrent calls through Promise.all
// expect: success
// value: 50005000
// calls: 10000
// options: {"timeoutMs": 60000}
const all = await Promise.all(Array.from({ length: 10_000 }, (_, i) => tools.add({ a: i, b: 1 })));
return (all as number[]).reduce((s, n) => s + n, 0);
