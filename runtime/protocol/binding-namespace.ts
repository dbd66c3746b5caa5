import type { JsonValue } from './json-value.js';
import type { ErrorClass, ProgressNote } from './binding-call.js';

// What a handler learns about the call it serves; `signal` aborts when the run settles.
export interface CallContext {
  id: number;
  global: string;
  name: string;
  signal: AbortSignal;
  // lets wrapping layers (replay, schema checks, progress reports) mark the call record
  annotate(note: { replayed?: boolean; schemaViolation?: string; progress?: ProgressNote }): void;
  // lets the layer serving the call register how to end it early (an interrupt); returns the unregistration
  interruptible?(stop: (reason: Error) => void): () => void;
}

// A host-provided function: one lossless-JSON argument in, one lossless-JSON value out.
export type BindingFunction = (args: JsonValue, context?: CallContext) => Promise<JsonValue>;

export type ErrorClassSpec = ErrorClass;

// One program-visible global (e.g. `tools`) and the functions reachable through it.
export interface BindingNamespace {
  global: string;
  functions: Record<string, BindingFunction>;
  errorClass?: ErrorClassSpec;
}
