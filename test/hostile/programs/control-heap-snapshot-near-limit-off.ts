// about: CONTROL: with the sandbox off, a near-heap-limit snapshot lands in the host working directory
// expect: worker-exit
// must: file-created
// options: {"sandbox": "off", "memoryMb": 16}
const v8 = await import('node:v8');
v8.setHeapSnapshotNearHeapLimit(1);
const hoard: unknown[] = [];
for (;;) hoard.push({ filler: new Array(1000).fill(1) });
