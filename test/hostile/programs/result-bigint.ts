// about: returns a BigInt
// expect: invalid-output
return 10n;
