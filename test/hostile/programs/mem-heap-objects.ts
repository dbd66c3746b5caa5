// about: fills the V8 heap with small objects (128 MiB cap)
// expect: worker-exit
// message: exited|heap
const hoard: unknown[] = [];
for (let i = 0; ; i++) hoard.push(Array.from({ length: 100_000 }, (_, j) => ({ i, j })));
