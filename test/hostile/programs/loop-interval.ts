// about: an interval timer keeps an otherwise idle program alive
// expect: timeout
setInterval(() => {}, 1);
await new Promise(() => {});
