// about: hard-links the secret into its temp dir and reads it
// expect: success|exception
// must-not: secret-leaked
const fs = await import('node:fs');
const os = await import('node:os');
const link = os.tmpdir() + '/hard.txt';
try { fs.linkSync('{{SECRET_FILE}}', link); } catch (e) { console.log('link:', String((e as Error).message)); }
try { return fs.readFileSync(link, 'utf8'); } catch (e) { return String((e as Error).message); }
