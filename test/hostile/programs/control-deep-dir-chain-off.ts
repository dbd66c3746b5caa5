// about: CONTROL: with the sandbox off, a directory chain deeper than PATH_MAX in the temp dir is on the host disk while the program runs
// expect: success
// must: data-on-host-disk
// options: {"sandbox": "off"}
const fs = await import('node:fs');
const os = await import('node:os');
const home = process.cwd();
fs.mkdirSync(os.tmpdir() + '/deep-{{TOKEN}}');
process.chdir(os.tmpdir() + '/deep-{{TOKEN}}');
for (let i = 0; i < 20; i++) {
  fs.mkdirSync('d'.repeat(250));
  process.chdir('d'.repeat(250));
}
fs.writeFileSync('data', Buffer.alloc(1 << 20, 'x'));
process.chdir(home);
return { hostSees: await probe.hostLook({}) };
