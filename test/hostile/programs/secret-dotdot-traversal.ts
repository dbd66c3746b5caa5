// about: reaches the secret through ../ from its temp dir
// expect: success|exception
// must-not: secret-leaked
const fs = await import('node:fs');
const os = await import('node:os');
const path = os.tmpdir() + '/../../../../..' + '{{SECRET_FILE}}';
try { return fs.readFileSync(path, 'utf8'); } catch (e) { return String((e as Error).message); }
