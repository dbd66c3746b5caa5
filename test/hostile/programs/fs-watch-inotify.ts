// about: fs.watch is inotify underneath: a per-user pool, and a channel between concurrent runs through shared files
// expect: success|exception
// must-not: kernel-granted
const fs = await import('node:fs');
try {
  const watcher = fs.watch('/tmp');
  watcher.close();
  return 'fs.watch ' + '{{TOKEN}}'.toUpperCase();
} catch (e) {
  return `fs.watch refused: ${(e as Error).message}`;
}
