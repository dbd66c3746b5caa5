// about: a Map with millions of entries (GC thrash may reach the deadline first)
// expect: worker-exit|exception|timeout
const m = new Map<number, string>();
for (let i = 0; ; i++) m.set(i, String(i));
