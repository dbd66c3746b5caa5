// about: an infinite loop that awaits on every turn
// expect: timeout
while (true) { await null; }
