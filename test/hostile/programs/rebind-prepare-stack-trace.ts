// about: Error.prepareStackTrace throws whenever a stack is read, then the program throws
// expect: exception
// message: ^Error: boom with a poisoned stack$
Error.prepareStackTrace = () => { throw new Error('prepareStackTrace poisoned'); };
throw new Error('boom with a poisoned stack');
