// about: listens on a port and waits; the deadline ends it, or the refused socket does
// expect: timeout|exception
const net = await import('node:net');
const server = net.createServer(() => undefined);
server.listen(0);
await new Promise(() => {});
