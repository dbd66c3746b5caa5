import os from 'node:os';

const defineProperty = Object.defineProperty;
const getPrototypeOf = Object.getPrototypeOf;
const EACCES = -(os.constants.errno.EACCES ?? 13);

// Unix-domain sockets live on the filesystem, so the network namespace does not hide them, and Node 20's
// permission model does not check connect()/bind(): without this a confined program reaches e.g. a docker or
// ssh-agent socket. Every Unix socket handle shares the Pipe prototype; its connect/bind are replaced for good
// (non-configurable, before any model code runs), so no later path to that prototype finds the originals.
export function denyUnixSockets(channel: unknown): boolean {
  const handle = (channel as { _handle?: unknown } | null)?._handle;
  if (handle === null || typeof handle !== 'object') return false;
  const proto = getPrototypeOf(handle) as object | null;
  if (proto === null) return false;
  for (const name of ['connect', 'bind']) {
    defineProperty(proto, name, { value: () => EACCES, writable: false, enumerable: false, configurable: false });
  }
  return true;
}
