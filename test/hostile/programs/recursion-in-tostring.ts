// about: a thrown object whose toString recurses forever
// expect: exception
const o: { toString(): string } = { toString: () => String(o) };
throw o;
