import type { BindingNamespace, CallContext } from '../../../runtime/api.js';
import type { JsonValue } from '../../../runtime/protocol/json-value.js';

// Fingerprint of the host's intrinsics: a program polluting the host's prototypes or JSON would change it.
export function intrinsicsFingerprint(): string {
  const parts: string[] = [];
  for (const [name, proto] of [
    ['Object', Object.prototype],
    ['Array', Array.prototype],
    ['Function', Function.prototype],
    ['String', String.prototype],
    ['Promise', Promise.prototype],
    ['Error', Error.prototype],
  ] as const) {
    parts.push(`${name}:${Reflect.ownKeys(proto).map(String).sort().join(',')}`);
  }
  parts.push(`JSON:${typeof JSON.parse}/${typeof JSON.stringify}/${JSON.stringify({ a: [1] })}`);
  const probe: Record<string, unknown> = {};
  parts.push(`probe:${String(probe.polluted)}/${String(probe.isAdmin)}/${String(probe.toJSON)}`);
  return parts.join('|');
}

// The `tools` namespace every corpus program sees; it records each handler invocation with its time.
export interface RecordingTools {
  namespace: BindingNamespace;
  invocations: { name: string; at: number }[];
}

export function recordingTools(): RecordingTools {
  const invocations: { name: string; at: number }[] = [];
  type Handler = (args: JsonValue, ctx?: CallContext) => Promise<JsonValue>;
  // pairs, not an object literal: a literal `__proto__:` key would set the prototype instead of a member
  const fns: [string, Handler][] = Object.entries({
    echo: async (args: JsonValue) => args,
    add: async (args: JsonValue) => {
      const { a, b } = args as { a: number; b: number };
      return a + b;
    },
    fail: async () => {
      throw new Error('tool exploded');
    },
    never: () => new Promise<JsonValue>(() => undefined),
    slow: (args: JsonValue) =>
      new Promise((resolve) => setTimeout(() => resolve('slow done'), Number((args as { ms?: number }).ms ?? 100))),
    // a host handler that answers with something that is not lossless JSON
    lossy: async () => Number.NaN as JsonValue,
    // a host handler whose thrown value has a hostile toString
    throwsHostile: async () => {
      throw {
        toString() {
          throw new Error('toString exploded');
        },
      };
    },
  } as Record<string, Handler>);
  // Object.prototype member names as ordinary binding names
  fns.push(
    ['__proto__', async () => 'proto-fn'],
    ['constructor', async () => 'constructor-fn'],
    ['my-tool', async () => 'dashed'],
  );
  const functions = Object.create(null) as Record<string, Handler>;
  for (const [name, fn] of fns) {
    Object.defineProperty(functions, name, {
      enumerable: true,
      value: (args: JsonValue, ctx?: CallContext) => {
        invocations.push({ name, at: performance.now() });
        return fn(args, ctx);
      },
    });
  }
  return {
    namespace: { global: 'tools', functions, errorClass: { name: 'ToolCallError', memberNameProperty: 'toolName' } },
    invocations,
  };
}
