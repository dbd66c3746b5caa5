// about: pollutes its own Object.prototype (toJSON included) before returning
// expect: success
// value: {"a":1,"list":[1,2]}
const o = Object.prototype as Record<string, unknown>;
o.polluted = 'yes';
o.toJSON = () => 'hijacked';
o.isAdmin = true;
return { a: 1, list: [1, 2] };
