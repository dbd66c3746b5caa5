// about: reads a secret file planted in the home directory
// expect: success|exception
// must-not: secret-leaked
const fs = await import('node:fs');
try {
  return fs.readFileSync('{{SECRET_FILE}}', 'utf8');
} catch (e) {
  return String((e as Error).message);
}
