// about: nulls console, process.stdout.write and globalThis.console
// expect: success
// value: 1
(globalThis as Record<string, unknown>).console = null;
(process.stdout as unknown as Record<string, unknown>).write = null;
(process.stderr as unknown as Record<string, unknown>).write = null;
return 1;
