// about: CONTROL: with the sandbox off, the Unix socket connection arrives
// expect: success
// value: "connected"
// must: unix-received
// options: {"sandbox": "off"}
const net = await import('node:net');
return await new Promise((resolve) => {
  const s = net.connect({ path: '{{UNIX_PATH}}' });
  s.on('connect', () => { s.destroy(); resolve('connected'); });
  s.on('error', (e) => resolve('error: ' + String(e)));
});
