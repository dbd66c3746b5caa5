// about: makes JSON.stringify and JSON.parse throw, then logs objects, calls bindings and returns nested data
// expect: success
// value: {"r":{"k":[1,2,{"z":"é"}]},"n":8}
// logs: ^\{ a: \[ 1 \] \}$
JSON.stringify = () => { throw new Error('stringify gone'); };
JSON.parse = () => { throw new Error('parse gone'); };
console.log({ a: [1] });
const r = await tools.echo({ k: [1, 2, { z: 'é' }] });
return { r, n: await tools.add({ a: 3, b: 5 }) };
