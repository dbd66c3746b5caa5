// about: process.exit(7)
// expect: worker-exit
// message: 7
process.exit(7);
