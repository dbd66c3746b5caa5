// about: breaks every String.prototype method the error report could use, then throws
// expect: exception
// message: ^Error: thrown after String\.prototype was gutted\n\s*at .*program\.ts:10
// logs: ^before the throw$
const proto = String.prototype as unknown as Record<string, unknown>;
for (const m of ['split', 'slice', 'indexOf', 'startsWith', 'replace', 'match', 'trim', 'charCodeAt', 'concat', 'substring', 'padStart', 'toString', 'valueOf']) {
  proto[m] = () => { throw new Error(m + ' gone'); };
}
console.log('before the throw');
throw new Error('thrown after String.prototype was gutted');
