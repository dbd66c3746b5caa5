// about: CONTROL: with the sandbox off, the loopback TCP connection arrives
// expect: success
// value: "connected"
// must: tcp-received
// options: {"sandbox": "off"}
const net = await import('node:net');
return await new Promise((resolve) => {
  const s = net.connect({ host: '127.0.0.1', port: {{TCP_PORT}} });
  s.on('connect', () => { s.destroy(); resolve('connected'); });
  s.on('error', (e) => resolve('error: ' + String(e)));
});
