// about: CONTROL: with the sandbox off, fs.watch makes an inotify instance (closed at once)
// expect: success
// must: kernel-granted
// options: {"sandbox": "off"}
const fs = await import('node:fs');
const os = await import('node:os');
const watcher = fs.watch(os.tmpdir());
watcher.close();
return 'fs.watch ' + '{{TOKEN}}'.toUpperCase();
