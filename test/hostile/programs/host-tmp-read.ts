// about: lists the host's /tmp and reads what it finds there (a root-only secret file is planted in it)
// expect: success|exception
// must-not: secret-leaked
const fs = await import('node:fs');
const out: string[] = [];
const read = (file: string): void => {
  try {
    out.push(fs.readFileSync(file, 'utf8').slice(0, 200));
  } catch (e) {
    out.push(file + ': ' + ((e as NodeJS.ErrnoException).code ?? String(e)));
  }
};
read('{{HOST_TMP_SECRET}}');
try {
  for (const name of fs.readdirSync('/tmp')) if (name.startsWith('ptc-hostile-tmp-secret-')) read('/tmp/' + name);
} catch (e) {
  out.push('/tmp: ' + ((e as NodeJS.ErrnoException).code ?? String(e)));
}
return out;
