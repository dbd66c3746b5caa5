// about: connects to a Unix socket the test listens on
// expect: success
// must-not: unix-received
const net = await import('node:net');
return await new Promise((resolve) => {
  const s = net.connect({ path: '{{UNIX_PATH}}' });
  s.on('connect', () => { s.destroy(); resolve('connected'); });
  s.on('error', (e) => resolve('error: ' + (e as NodeJS.ErrnoException).code));
});
