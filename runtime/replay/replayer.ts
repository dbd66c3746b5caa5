import type { BindingNamespace, CallContext, ErrorClassSpec } from '../api.js';
import { CallFailure } from '../bindings/call-failure.js';
import type { FailureDetails } from '../protocol/program-wire.js';
import { canonicalJson } from '../json/lossless.js';
import { describeNamespace, type CassetteCall, type NamespaceDescriptor } from '../protocol/binding-call.js';
import type { JsonValue } from '../protocol/json-value.js';
import { KEPT_CALLS, type ReplayReport } from '../protocol/run-result.js';
import type { Cassette } from './cassette-format.js';

// What replay needs of a namespace: its global, its function names and its error class (handlers never run).
export type DeclaredNamespace = NamespaceDescriptor;

export interface Replay {
  namespaces: BindingNamespace[];
  report(): ReplayReport;
}

const MAX_ARGS_SHOWN = 200;

const keyOf = (global: string, name: string, args: JsonValue): string =>
  `${global}\u0000${name}\u0000${canonicalJson(args)}`;
const nameKey = (global: string, name: string): string => `${global}\u0000${name}`;

function shorten(text: string): string {
  return text.length > MAX_ARGS_SHOWN ? `${text.slice(0, MAX_ARGS_SHOWN)}…` : text;
}

export function declaredFrom(namespaces: readonly BindingNamespace[]): DeclaredNamespace[] {
  return namespaces.map(describeNamespace);
}

// The namespaces a loaded bindings module declares; an MCP namespace whose server was not started takes its names from
// the cassette.
export function declaredFromModule(
  module: {
    namespaces: Record<
      string,
      { functions: Record<string, unknown>; errorClass?: ErrorClassSpec; toolsUnlisted?: true }
    >;
  },
  cassette?: Cassette,
): DeclaredNamespace[] {
  return Object.entries(module.namespaces).map(([global, ns]) => {
    const names = new Set(Object.keys(ns.functions));
    if (ns.toolsUnlisted === true)
      for (const call of cassette?.calls ?? []) if (call.global === global) names.add(call.name);
    return { global, names: [...names], ...(ns.errorClass ? { errorClass: ns.errorClass } : {}) };
  });
}

// The namespaces a cassette implies when no bindings module is given (no error classes: failures are plain Errors).
export function declaredFromCassette(cassette: Cassette): DeclaredNamespace[] {
  const byGlobal = new Map<string, Set<string>>();
  for (const call of cassette.calls) {
    const names = byGlobal.get(call.global) ?? new Set<string>();
    names.add(call.name);
    byGlobal.set(call.global, names);
  }
  return [...byGlobal].map(([global, names]) => ({ global, names: [...names] }));
}

// Serves every call from the cassette: first unused recorded call with the same global, name and canonical args.
// `absent`: why there is no cassette at all (a cell that was never recorded), said by every call instead of a
// divergence.
export function replayNamespaces(
  cassette: Cassette,
  declared: readonly (DeclaredNamespace | BindingNamespace)[],
  options: { absent?: string } = {},
): Replay {
  const unused = new Map<string, number[]>();
  cassette.calls.forEach((call, index) => {
    const key = keyOf(call.global, call.name, call.args);
    const queue = unused.get(key) ?? [];
    queue.push(index);
    unused.set(key, queue);
  });
  // unused recorded calls per binding, for the divergence message without a scan of the cassette per call
  const unusedByName = new Map<string, Set<number>>();
  cassette.calls.forEach((call, index) => {
    const key = nameKey(call.global, call.name);
    const set = unusedByName.get(key) ?? new Set<number>();
    set.add(index);
    unusedByName.set(key, set);
  });
  let matched = 0;
  // the first KEPT_CALLS diverged calls are listed, all are counted (a run of 10^6 unmatched calls stays bounded)
  const diverged: ReplayReport['diverged'] = [];
  let divergedTotal = 0;

  const serve = (
    global: string,
    name: string,
    args: JsonValue,
    context: CallContext | undefined,
  ): Promise<JsonValue> => {
    const queue = unused.get(keyOf(global, name, args));
    const index = queue?.shift();
    if (index === undefined) {
      divergedTotal++;
      if (diverged.length < KEPT_CALLS) diverged.push({ global, name, args });
      return Promise.reject(
        new Error(
          options.absent !== undefined
            ? `${options.absent} (${global}.${name}(${shorten(canonicalJson(args))}) was called)`
            : divergenceMessage(cassette, global, name, args, unusedByName.get(nameKey(global, name))),
        ),
      );
    }
    unusedByName.get(nameKey(global, name))?.delete(index);
    matched++;
    const call = cassette.calls[index] as CassetteCall;
    context?.annotate(
      call.schemaViolation === undefined
        ? { replayed: true }
        : { replayed: true, schemaViolation: call.schemaViolation },
    );
    for (const progress of call.progress ?? []) context?.annotate({ progress });
    return answer(call, context);
  };

  const namespaces = declared.map((d): BindingNamespace => {
    const names = 'names' in d ? d.names : Object.keys(d.functions);
    const functions: BindingNamespace['functions'] = Object.create(null);
    for (const name of names) {
      Object.defineProperty(functions, name, {
        value: (args: JsonValue, context?: CallContext) => serve(d.global, name, args, context),
        enumerable: true,
      });
    }
    return d.errorClass === undefined
      ? { global: d.global, functions }
      : { global: d.global, functions, errorClass: d.errorClass };
  });

  const report = (): ReplayReport => ({
    matched,
    diverged: [...diverged],
    ...(divergedTotal > diverged.length ? { divergedTotal } : {}),
    unused: cassette.calls.length - matched,
  });
  return { namespaces, report };
}

// Recorded outcome as the program saw it; a call never answered in the recording stays unanswered until the run
// settles.
function answer(call: CassetteCall, context: CallContext | undefined): Promise<JsonValue> {
  if (call.pending === true) {
    return new Promise((_, reject) => {
      const signal = context?.signal;
      if (signal === undefined) return;
      if (signal.aborted) reject(signal.reason);
      else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
  }
  if (call.ok) return Promise.resolve(call.value as JsonValue);
  const details: FailureDetails = {};
  if (call.code !== undefined) details.code = call.code;
  if (call.data !== undefined) details.data = call.data;
  return Promise.reject(new CallFailure(call.message ?? 'binding failed', details));
}

// `sameName`: the unused recorded calls of this binding (undefined when the cassette never recorded it).
function divergenceMessage(
  cassette: Cassette,
  global: string,
  name: string,
  args: JsonValue,
  sameName: Set<number> | undefined,
): string {
  const label = `${global}.${name}`;
  const head = `replay divergence: ${label}(${shorten(canonicalJson(args))}) matches no unused recorded call`;
  if (sameName === undefined || sameName.size === 0) {
    return `${head} (${sameName !== undefined ? `every recorded ${label} call is already used` : `the cassette has no ${label} call`})`;
  }
  // the earliest unused one, as a scan of the cassette would find first (the set was filled in index order)
  const example = cassette.calls[sameName.values().next().value as number] as CassetteCall;
  return `${head} (${sameName.size} unused ${label} call(s) recorded with other arguments, e.g. ${shorten(canonicalJson(example.args))})`;
}
