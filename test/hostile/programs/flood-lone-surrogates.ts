// about: lone surrogates in logs and value survive as code units
// expect: success
// value: "\udc00"
console.log('a\uD800b');
process.stdout.write('c\uDFFF\n');
return '\uDC00';
