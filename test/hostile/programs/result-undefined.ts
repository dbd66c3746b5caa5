// about: returns undefined: no value key
// expect: success
return undefined;
