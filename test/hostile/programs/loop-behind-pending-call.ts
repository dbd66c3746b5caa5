// about: a hot loop while a binding call is pending
// expect: timeout
void tools.never({});
while (true) {}
