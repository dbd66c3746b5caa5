// about: grows one huge array of doubles
// expect: worker-exit|exception
const big: number[] = [];
for (;;) big.push(Math.random());
