// about: unbounded async recursion
// expect: exception
// message: call stack|RangeError
const f = async (n: number): Promise<number> => (await f(n + 1)) + 1;
return await f(0);
