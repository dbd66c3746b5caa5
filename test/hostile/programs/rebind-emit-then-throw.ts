// about: replaces process.emit (which delivers 'uncaughtException') and then throws
// expect: exception
// message: ^Error: thrown after process\.emit was replaced
// logs: ^kept$
console.log('kept');
(process as unknown as Record<string, unknown>).emit = () => { throw new Error('emit gone'); };
throw new Error('thrown after process.emit was replaced');
