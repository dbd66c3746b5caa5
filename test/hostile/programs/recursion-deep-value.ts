// about: a 10 000-deep array crosses as the completion value
// expect: success
let v: unknown = [];
for (let i = 0; i < 10_000; i++) v = [v];
return v;
