// about: a rejection scheduled to happen after the return
// expect: success
// value: 1
setTimeout(() => void Promise.reject(new Error('late rejection')), 0);
return 1;
