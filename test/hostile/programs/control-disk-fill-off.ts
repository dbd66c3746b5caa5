// about: CONTROL: with the sandbox off, what the program writes to its temp dir is on the host disk while it runs
// expect: success
// must: data-on-host-disk
// options: {"sandbox": "off"}
const fs = await import('node:fs');
const os = await import('node:os');
fs.mkdirSync(os.tmpdir() + '/fill-{{TOKEN}}');
fs.writeFileSync(os.tmpdir() + '/fill-{{TOKEN}}/0', Buffer.alloc(8 << 20, 'x'));
return { hostSees: await probe.hostLook({}) };
