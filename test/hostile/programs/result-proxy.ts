// about: returns a Proxy whose ownKeys trap throws
// expect: invalid-output|exception
return new Proxy({}, { ownKeys() { throw new Error('ownKeys'); } });
