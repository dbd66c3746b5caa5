// about: throws a Symbol
// expect: exception
throw Symbol('sym');
