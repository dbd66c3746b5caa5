// about: a synchronous infinite loop
// expect: timeout
// message: deadline
while (true) {}
