// about: returns a Date and a Map
// expect: invalid-output
return [new Date(0), new Map()];
