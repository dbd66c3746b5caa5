// about: doubles a string until something gives
// expect: worker-exit|exception
let s = 'x';
for (;;) s += s + String(s.length);
