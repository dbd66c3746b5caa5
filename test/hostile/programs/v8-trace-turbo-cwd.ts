// about: --trace-turbo alone: V8 writes turbo-*.cfg into the process's working directory (the host's, unless the sandbox gives it its own)
// expect: success|exception
// must-not: file-created
const v8 = await import('node:v8');
const out: string[] = [];
for (const flag of ['--no-concurrent-recompilation', '--no-concurrent-osr', '--no-turbo-inlining', '--trace-turbo-filter=hot', '--trace-turbo']) {
  try {
    v8.setFlagsFromString(flag);
    out.push(flag + ': set');
  } catch (e) {
    out.push(flag + ': ' + String(e));
  }
}
function hot(x: number): number { return x * 7 + 1; }
let s = 0;
for (let i = 0; i < 1e6; i++) s += hot(i);
out.push(String(s));
return out;
