// about: CONTROL: with the sandbox off, the UDP datagram arrives
// expect: success
// must: udp-received
// options: {"sandbox": "off"}
const dgram = await import('node:dgram');
const s = dgram.createSocket('udp4');
await new Promise<void>((resolve) => s.send('hello', {{UDP_PORT}}, '127.0.0.1', () => resolve()));
s.close();
await new Promise((r) => setTimeout(r, 100));
return 'sent';
