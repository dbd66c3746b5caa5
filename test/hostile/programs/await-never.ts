// about: awaits a promise that never settles
// expect: timeout
await new Promise(() => {});
