// about: replaces Error and RangeError, then throws
// expect: exception
(globalThis as Record<string, unknown>).Error = class { constructor() { throw new Error('nope'); } };
(globalThis as Record<string, unknown>).RangeError = null;
throw { message: 'plain object thrown after Error was replaced' };
