// about: V8 flags set at run time (--redirect-code-traces-to, --print-opt-code) make V8 itself, below Node's permission model, overwrite a planted .pth outside with traces that carry a line the program wrote
// expect: success|exception
// must-not: file-changed, file-created
const v8 = await import('node:v8');
const out: string[] = [];
for (const flag of ['--no-concurrent-recompilation', '--no-concurrent-osr', '--no-turbo-inlining', '--redirect-code-traces-to={{TARGET_FILE}}', '--redirect-code-traces', '--print-opt-code', '--print-opt-code-filter=hot']) {
  try {
    v8.setFlagsFromString(flag);
    out.push(flag + ': set');
  } catch (e) {
    out.push(flag + ': ' + String(e));
  }
}
// the raw source of an optimized function is traced verbatim, so this comment would become a line a .pth runs
function hot(x: number): number { /*
import os; os.getpid()
*/ return x * 2 + 1; }
let s = 0;
for (let i = 0; i < 1e6; i++) s += hot(i);
out.push(String(s));
return out;
