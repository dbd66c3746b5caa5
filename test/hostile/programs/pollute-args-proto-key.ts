// about: binding arguments with __proto__ and constructor.prototype keys
// expect: success
// value: {"__proto__":{"isAdmin":true},"constructor":{"prototype":{"polluted":1}}}
return await tools.echo(JSON.parse('{"__proto__": {"isAdmin": true}, "constructor": {"prototype": {"polluted": 1}}}'));
