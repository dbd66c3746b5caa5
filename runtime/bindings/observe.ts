import type { BindingNamespace, CallContext } from '../api.js';
import { writeJsonText } from '../json/json-text.js';
import type { JsonValue } from '../protocol/json-value.js';
import { errorMessage } from '../output/error-message.js';

export interface CallEvent {
  global: string;
  name: string;
  ok: boolean;
  durationMs: number;
  // UTF-16 length of the JSON arguments, so logs show sizes without the (possibly secret) values
  argsChars: number;
  message?: string;
}

export type CallListener = (event: CallEvent) => void;
// Told when a call starts (live progress: calls in flight); never given its arguments.
export type CallStartListener = (call: { global: string; name: string }) => void;

// Counted piece by piece by the iterative writer: a deep argument is measured too, and never held as one string.
function jsonLength(value: JsonValue): number {
  let length = 0;
  writeJsonText(value, (piece) => (length += piece.length));
  return length;
}

// Wraps every handler so each settled call is reported; behaviour (value, rejection) is unchanged.
export function observeNamespaces(
  namespaces: BindingNamespace[],
  listener: CallListener,
  onStart?: CallStartListener,
): BindingNamespace[] {
  return namespaces.map((ns) => {
    const functions: BindingNamespace['functions'] = Object.create(null);
    for (const [name, handler] of Object.entries(ns.functions)) {
      // the call context carries annotate(): replay and schema checks mark the call record through it
      const wrapped = async (args: JsonValue, context?: CallContext): Promise<JsonValue> => {
        const started = performance.now();
        try {
          onStart?.({ global: ns.global, name });
        } catch {
          // a failing listener must never change what the program sees
        }
        const report = (ok: boolean, message?: string): void => {
          try {
            listener({
              global: ns.global,
              name,
              ok,
              durationMs: performance.now() - started,
              argsChars: jsonLength(args),
              ...(message === undefined ? {} : { message }),
            });
          } catch {
            // a failing listener must never change what the program sees
          }
        };
        try {
          const value = await handler(args, context);
          report(true);
          return value;
        } catch (error) {
          report(false, errorMessage(error));
          throw error;
        }
      };
      Object.defineProperty(functions, name, { value: wrapped, enumerable: true });
    }
    return { ...ns, functions };
  });
}
