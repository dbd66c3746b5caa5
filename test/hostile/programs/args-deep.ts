// about: a 10 000-deep argument crosses both ways
// expect: success
// value: [10000,"leaf"]
let v: unknown = 'leaf';
for (let i = 0; i < 10_000; i++) v = [v];
let back = (await tools.echo(v as never)) as unknown;
let depth = 0;
while (Array.isArray(back)) { back = back[0]; depth++; }
return [depth, back];
