// about: loads a native addon with process.dlopen
// expect: exception
const m = { exports: {} };
process.dlopen(m, '/usr/lib/x86_64-linux-gnu/libc.so.6');
return 'loaded';
