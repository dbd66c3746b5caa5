// about: writes a file into /dev/shm: on the host it outlives the run in memory nobody frees
// expect: success|exception
// must-not: data-on-host-disk
const fs = await import('node:fs');
try {
  fs.writeFileSync('/dev/shm/ptc-{{TOKEN}}', Buffer.alloc(1 << 20, 'x'));
  return ['written', await probe.hostLook({})];
} catch (e) {
  return (e as NodeJS.ErrnoException).code ?? String(e);
}
