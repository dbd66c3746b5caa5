// about: listens on a port and waits; the deadline ends it
// expect: timeout
const net = await import('node:net');
const server = net.createServer(() => undefined);
server.listen(0);
await new Promise(() => {});
