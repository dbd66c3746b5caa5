// about: writes outside its temp dir in every way it can
// expect: success
// must-not: file-created
const fs = await import('node:fs');
const os = await import('node:os');
const target = '{{OUTSIDE_DIR}}';
const tries: [string, () => unknown][] = [
  ['writeFileSync', () => fs.writeFileSync(target + '/a', 'x')],
  ['mkdirSync', () => fs.mkdirSync(target + '/d')],
  ['openSync', () => fs.openSync(target + '/b', 'w')],
  ['copyFileSync', () => { fs.writeFileSync(os.tmpdir() + '/c', 'x'); fs.copyFileSync(os.tmpdir() + '/c', target + '/c'); }],
  ['renameSync', () => { fs.writeFileSync(os.tmpdir() + '/r', 'x'); fs.renameSync(os.tmpdir() + '/r', target + '/r'); }],
  ['relative cwd', () => fs.writeFileSync('relative-write', 'x')],
];
const out: string[] = [];
for (const [name, attempt] of tries) {
  try { attempt(); out.push(name + ': written'); } catch { out.push(name + ': denied'); }
}
return out;
