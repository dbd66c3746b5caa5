// about: unbounded synchronous recursion
// expect: exception
// message: call stack
const f = (n: number): number => f(n + 1) + 1;
return f(0);
