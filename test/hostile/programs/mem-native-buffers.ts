// about: native (off-heap) buffers are outside the V8 heap cap: 1 GiB is taken, the deadline still ends the run and the host survives
// expect: timeout|worker-exit|exception
const held: Buffer[] = [];
for (let i = 0; i < 64; i++) held.push(Buffer.alloc(16 * 1024 * 1024, i));
while (true) {}
