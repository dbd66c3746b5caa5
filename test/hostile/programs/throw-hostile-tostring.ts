// about: throws an object whose toString throws
// expect: exception
throw { toString() { throw new Error('toString exploded'); } };
