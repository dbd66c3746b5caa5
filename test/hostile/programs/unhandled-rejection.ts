// about: an unhandled rejection while the program still runs
// expect: exception
// message: nobody handles me
void Promise.reject(new Error('nobody handles me'));
await new Promise((r) => setTimeout(r, 200));
return 'unreachable';
