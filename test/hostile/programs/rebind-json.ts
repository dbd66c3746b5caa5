// about: rebinds JSON.stringify and JSON.parse before returning
// expect: success
// value: {"ok":3}
JSON.stringify = (() => '{"type":"done","value":"pwned"}') as typeof JSON.stringify;
JSON.parse = (() => ({})) as typeof JSON.parse;
console.log('logged', { a: 1 });
return { ok: await tools.add({ a: 1, b: 2 }) };
