// about: NUL characters in logs and value
// expect: success
// value: "a\u0000b"
console.log('\0'.repeat(1000));
return 'a\0b';
