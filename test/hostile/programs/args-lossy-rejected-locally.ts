// about: -0, NaN, BigInt, undefined members and Infinity are rejected before any call is made
// expect: success
// value: ["rejected","rejected","rejected","rejected","rejected","rejected"]
// calls: 0
const out: string[] = [];
for (const v of [-0, Number.NaN, 10n, { a: undefined }, Infinity, [1, , 3]]) {
  try {
    await tools.echo(v as never);
    out.push('sent');
  } catch {
    out.push('rejected');
  }
}
return out;
