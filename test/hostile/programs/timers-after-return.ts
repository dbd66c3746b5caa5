// about: timers that would log and call a binding after the return
// expect: success
// value: "early"
// calls: 0
setTimeout(() => console.log('late log'), 20);
setTimeout(() => void tools.echo('late call'), 20);
setImmediate(() => console.log('immediate log'));
return 'early';
