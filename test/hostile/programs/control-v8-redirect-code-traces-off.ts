// about: CONTROL: with the sandbox off, --redirect-code-traces-to set at run time overwrites the planted .pth with V8's traces
// expect: success
// must: file-changed
// options: {"sandbox": "off"}
const v8 = await import('node:v8');
for (const flag of ['--no-concurrent-recompilation', '--no-concurrent-osr', '--no-turbo-inlining', '--redirect-code-traces-to={{TARGET_FILE}}', '--redirect-code-traces', '--print-opt-code', '--print-opt-code-filter=hot']) v8.setFlagsFromString(flag);
function hot(x: number): number { /*
import os; os.getpid()
*/ return x * 2 + 1; }
let s = 0;
for (let i = 0; i < 1e6; i++) s += hot(i);
return s > 0;
