// about: CONTROL: with the sandbox off, --trace-turbo-cfg-file set at run time writes V8's CFG into the planted file
// expect: success
// must: file-changed
// options: {"sandbox": "off"}
const v8 = await import('node:v8');
for (const flag of ['--no-concurrent-recompilation', '--no-concurrent-osr', '--no-turbo-inlining', '--trace-turbo-cfg-file={{TARGET_FILE}}', '--trace-turbo-filter=hot', '--trace-turbo']) v8.setFlagsFromString(flag);
function hot(x: number): number { return x * 3 + 1; }
let s = 0;
for (let i = 0; i < 1e6; i++) s += hot(i);
return s > 0;
