// about: connects to a loopback TCP listener started by the test
// expect: success
// must-not: tcp-received
const net = await import('node:net');
return await new Promise((resolve) => {
  const s = net.connect({ host: '127.0.0.1', port: {{TCP_PORT}} });
  s.on('connect', () => { s.destroy(); resolve('connected'); });
  s.on('error', (e) => resolve('error: ' + (e as NodeJS.ErrnoException).code));
});
