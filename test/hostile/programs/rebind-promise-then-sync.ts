// about: replaces Promise.prototype.then/catch/finally before the program's first await
// expect: success
// value: "sync"
const P = Promise.prototype as unknown as Record<string, unknown>;
P.then = P.catch = P.finally = function () { throw new Error('then gone before any await'); };
return 'sync';
