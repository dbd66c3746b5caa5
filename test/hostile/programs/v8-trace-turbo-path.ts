// about: --trace-turbo with --trace-turbo-path naming a directory outside: V8 writes its JSON graphs there
// expect: success|exception
// must-not: file-created
const v8 = await import('node:v8');
const out: string[] = [];
for (const flag of ['--no-concurrent-recompilation', '--no-concurrent-osr', '--no-turbo-inlining', '--trace-turbo-path={{OUTSIDE_DIR}}', '--trace-turbo-filter=hot', '--trace-turbo']) {
  try {
    v8.setFlagsFromString(flag);
    out.push(flag + ': set');
  } catch (e) {
    out.push(flag + ': ' + String(e));
  }
}
function hot(x: number): number { return x * 5 + 1; }
let s = 0;
for (let i = 0; i < 1e6; i++) s += hot(i);
out.push(String(s));
return out;
