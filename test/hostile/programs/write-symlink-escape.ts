// about: symlinks a directory outside into its temp dir and writes through it
// expect: success
// must-not: file-created
const fs = await import('node:fs');
const os = await import('node:os');
const link = os.tmpdir() + '/escape';
try { fs.symlinkSync('{{OUTSIDE_DIR}}', link); } catch (e) { console.log('symlink:', String((e as Error).message)); }
try { fs.writeFileSync(link + '/through-link', 'x'); return 'written'; } catch { return 'denied'; }
