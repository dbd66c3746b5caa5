// about: returns an object with a throwing getter
// expect: invalid-output|exception
return { get a() { throw new Error('getter'); } };
