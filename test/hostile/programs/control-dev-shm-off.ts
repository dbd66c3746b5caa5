// about: CONTROL: with the sandbox off, a file written into /dev/shm is in the host's /dev/shm
// expect: success
// must: data-on-host-disk
// options: {"sandbox": "off"}
const fs = await import('node:fs');
fs.writeFileSync('/dev/shm/ptc-{{TOKEN}}', Buffer.alloc(1 << 20, 'x'));
return await probe.hostLook({});
