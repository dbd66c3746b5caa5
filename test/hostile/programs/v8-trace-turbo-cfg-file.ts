// about: --trace-turbo with --trace-turbo-cfg-file pointed at a planted file outside: V8 opens and writes it itself
// expect: success|exception
// must-not: file-changed, file-created
const v8 = await import('node:v8');
const out: string[] = [];
for (const flag of ['--no-concurrent-recompilation', '--no-concurrent-osr', '--no-turbo-inlining', '--trace-turbo-cfg-file={{TARGET_FILE}}', '--trace-turbo-filter=hot', '--trace-turbo']) {
  try {
    v8.setFlagsFromString(flag);
    out.push(flag + ': set');
  } catch (e) {
    out.push(flag + ': ' + String(e));
  }
}
function hot(x: number): number { return x * 3 + 1; }
let s = 0;
for (let i = 0; i < 1e6; i++) s += hot(i);
out.push(String(s));
return out;
