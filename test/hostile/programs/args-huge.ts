// about: a 5 MB argument and reply
// expect: success
// value: 5000000
const s = await tools.echo('x'.repeat(5_000_000));
return (s as string).length;
