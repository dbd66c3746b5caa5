// What `node:util` is in the browser's run worker (runtime/wasm/web/run-worker.ts): the program's console renders
// through Node's own util.inspect and format, extracted for the web (node-inspect-extracted), so a value prints as it
// does in the Node engines. Values there come from the guest as JSON: no proxies.
import { format, formatWithOptions, inspect } from 'node-inspect-extracted';
import { types } from './node-util.js';

export { format, formatWithOptions, inspect, types };
export default { format, formatWithOptions, inspect, types };
