// about: returns a sparse array
// expect: invalid-output
const a = [1];
a[10] = 2;
return a;
