// about: breaks String.prototype methods and TextEncoder
// expect: success
// value: ["a€",{"k":"v"}]
for (const m of ['replace', 'slice', 'charCodeAt', 'codePointAt', 'split', 'indexOf', 'toString'] as const) {
  (String.prototype as unknown as Record<string, unknown>)[m] = () => { throw new Error(m + ' gone'); };
}
(globalThis as Record<string, unknown>).TextEncoder = null;
console.log('still logging');
return ['a\u20ac', { k: 'v' }];
