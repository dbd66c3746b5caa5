// about: returns a cyclic object
// expect: invalid-output
const a: Record<string, unknown> = {};
a.self = a;
return a;
