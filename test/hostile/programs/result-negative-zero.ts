// about: returns -0
// expect: invalid-output
return -0;
