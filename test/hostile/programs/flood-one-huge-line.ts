// about: one 5 MB log line
// expect: output-limit
console.log('x'.repeat(5_000_000));
return 'unreachable';
