// about: an infinite loop inside a finally block after a throw
// expect: timeout
try {
  throw new Error('about to spin');
} finally {
  while (true) {}
}
