// about: JSON.parse of a million nested arrays inside the program
// expect: exception|success
try {
  JSON.parse('['.repeat(1_000_000) + ']'.repeat(1_000_000));
  return 'parsed';
} catch (e) {
  throw e;
}
