// about: process.exit(0) is not a completion
// expect: worker-exit
process.exit(0);
