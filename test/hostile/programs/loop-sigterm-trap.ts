// about: traps SIGTERM and keeps running; the deadline still ends it
// expect: timeout
process.on('SIGTERM', () => console.log('ignored SIGTERM'));
process.on('SIGINT', () => undefined);
while (true) {}
