// about: output printed right before a non-yielding loop is kept
// expect: timeout
// logs: ^before the loop$
console.log('before the loop');
for (;;) {}
