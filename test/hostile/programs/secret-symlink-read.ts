// about: symlinks the secret into its temp dir and reads the link
// expect: success|exception
// must-not: secret-leaked
const fs = await import('node:fs');
const os = await import('node:os');
const link = os.tmpdir() + '/innocent.txt';
try { fs.symlinkSync('{{SECRET_FILE}}', link); } catch (e) { console.log('symlink:', String((e as Error).message)); }
try { return fs.readFileSync(link, 'utf8'); } catch (e) { return String((e as Error).message); }
