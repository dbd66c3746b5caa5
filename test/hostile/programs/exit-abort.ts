// about: process.abort()
// expect: worker-exit
// message: SIGABRT|abort|134
process.abort();
