// What the browser build gives the modules that import Node's util (runtime/json/walk.ts through its primordials,
// extension/log/format.ts), and amaro (the TypeScript stripper). In a browser every value they see comes from
// JSON.parse of a file: no proxies, and no array with properties beyond its indices, which is what a bare array's
// inspection says.
function inspect(value: unknown): string {
  if (Array.isArray(value)) return `[ ... ${value.length} more items, [length]: ${value.length} ]`;
  if (value instanceof Error) return value.stack ?? `${value.name}: ${value.message}`;
  try {
    return typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  } catch {
    return String(value);
  }
}

const types = { isProxy: (_value: unknown): boolean => false };

// amaro reads the text codecs from util, as older Node versions offered them
const { TextDecoder, TextEncoder } = globalThis;

export { inspect, types, TextDecoder, TextEncoder };
export default { inspect, types, TextDecoder, TextEncoder };
