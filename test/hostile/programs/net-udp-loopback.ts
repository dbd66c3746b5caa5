// about: sends UDP datagrams to a loopback listener started by the test
// expect: success|exception
// must-not: udp-received
const dgram = await import('node:dgram');
const s = dgram.createSocket('udp4');
const results: string[] = [];
for (let i = 0; i < 5; i++) {
  await new Promise<void>((resolve) => s.send('hello', {{UDP_PORT}}, '127.0.0.1', (e) => { results.push(e ? 'error: ' + (e as NodeJS.ErrnoException).code : 'sent'); resolve(); }));
}
s.close();
await new Promise((r) => setTimeout(r, 100));
return results;
