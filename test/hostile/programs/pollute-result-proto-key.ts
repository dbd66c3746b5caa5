// about: a completion with an own __proto__ key
// expect: success
// value: {"__proto__":{"polluted":"yes"},"a":1}
return JSON.parse('{"__proto__": {"polluted": "yes"}, "a": 1}');
