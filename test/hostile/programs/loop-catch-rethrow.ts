// about: an infinite loop that swallows every exception it raises
// expect: timeout
for (;;) {
  try {
    throw new Error('again');
  } catch {
    continue;
  }
}
