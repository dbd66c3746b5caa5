// about: an exit handler that tries to change the outcome
// expect: worker-exit
process.on('exit', () => { console.log('exit handler'); });
process.exitCode = 0;
process.exit();
