// about: returns an object with a toJSON method
// expect: invalid-output
return { toJSON() { return 'x'; } };
