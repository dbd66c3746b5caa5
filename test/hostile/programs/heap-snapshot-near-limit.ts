// about: v8.setHeapSnapshotNearHeapLimit, then heap exhaustion: Node writes a Heap.*.heapsnapshot into the host working directory
// expect: worker-exit|exception
// must-not: file-created
// options: {"memoryMb": 16}
const v8 = await import('node:v8');
v8.setHeapSnapshotNearHeapLimit(1);
const hoard: unknown[] = [];
for (;;) hoard.push({ filler: new Array(1000).fill(1) });
