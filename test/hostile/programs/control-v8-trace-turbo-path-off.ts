// about: CONTROL: with the sandbox off, --trace-turbo-path set at run time makes V8 write JSON graphs into the outside dir
// expect: success
// must: file-created
// options: {"sandbox": "off"}
const v8 = await import('node:v8');
for (const flag of ['--no-concurrent-recompilation', '--no-concurrent-osr', '--no-turbo-inlining', '--trace-turbo-path={{OUTSIDE_DIR}}', '--trace-turbo-filter=hot', '--trace-turbo']) v8.setFlagsFromString(flag);
function hot(x: number): number { return x * 5 + 1; }
let s = 0;
for (let i = 0; i < 1e6; i++) s += hot(i);
return s > 0;
