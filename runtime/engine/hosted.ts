import type { HostedBindings } from '../protocol/hosted-bindings.js';

// A start function for a child of a hosted run that refuses (throws) rather than start a child without its own
// connection to the host: such a child could never reach a handler, and every call of the run it later served would
// fail with "bindings host is not running" (spares started in one turn used to drain the stock of connections).
export function withChannel<C>(hosted: HostedBindings | undefined, start: () => C): () => C {
  return () => {
    if (hosted !== undefined && !hosted.channelReady()) throw new Error('no connection to the bindings host is ready');
    return start();
  };
}
