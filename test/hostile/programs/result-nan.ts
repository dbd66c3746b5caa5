// about: returns [NaN]
// expect: invalid-output
return [Number.NaN];
