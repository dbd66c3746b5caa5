import type { BindingNamespace, CallContext } from '../api.js';
import { failureDetails } from '../bindings/call-failure.js';
import { renderThrown } from '../bindings/dispatcher.js';
import { KEPT_PROGRESS, type ProgressNote } from '../protocol/run-result.js';
import { decodeLossless, encodeLossless } from '../json/lossless.js';
import type { JsonValue } from '../protocol/json-value.js';
import type { RunResult } from '../protocol/run-result.js';
import type { CassetteCall, DeterministicSettings } from '../protocol/binding-call.js';
import { CASSETTE_VERSION, type Cassette } from './cassette-format.js';

interface Entry {
  id: number;
  order: number;
  call: CassetteCall;
}

export interface Recorder {
  // the same namespaces, each call captured as the program saw it
  wrap(namespaces: BindingNamespace[]): BindingNamespace[];
  // every call so far, in call-id order; calls not answered before the run settled are `pending`
  cassette(options?: { deterministic?: DeterministicSettings }): Cassette;
}

const round = (ms: number): number => Math.round(ms * 1000) / 1000;

// A private copy: handlers may mutate their arguments or results after answering.
function snapshot(value: JsonValue): JsonValue {
  const encoded = encodeLossless(value);
  if (!encoded.ok) return value;
  const decoded = decodeLossless(encoded.text);
  return decoded.ok ? decoded.value : value;
}

// Records binding calls by wrapping handlers (outermost layer, so schema refusals and faults are recorded too).
export function createRecorder(): Recorder {
  const entries: Entry[] = [];
  let order = 0;
  const wrap = (namespaces: BindingNamespace[]): BindingNamespace[] =>
    namespaces.map((ns) => {
      const functions: BindingNamespace['functions'] = Object.create(null);
      for (const [name, handler] of Object.entries(ns.functions)) {
        const recorded = async (received: JsonValue, context?: CallContext): Promise<JsonValue> => {
          const args = snapshot(received);
          const entry: Entry = {
            id: context?.id ?? order + 1,
            order: order++,
            call: { global: ns.global, name, args, ok: false, pending: true, durationMs: 0 },
          };
          entries.push(entry);
          const began = performance.now();
          const answered = (): boolean => context?.signal.aborted !== true;
          let violation: string | undefined;
          const progress: ProgressNote[] = [];
          // inner layers mark schema violations and progress through the context; keep a copy for the cassette
          const observed: CallContext | undefined =
            context === undefined
              ? undefined
              : {
                  ...context,
                  annotate: (note) => {
                    if (note.schemaViolation !== undefined) violation = note.schemaViolation;
                    if (note.progress !== undefined && Number.isFinite(note.progress.progress)) {
                      progress.push(progressCopy(note.progress));
                      if (progress.length > KEPT_PROGRESS) progress.shift();
                    }
                    context.annotate(note);
                  },
                };
          try {
            const value = await handler(received, observed);
            if (answered()) {
              entry.call = {
                global: ns.global,
                name,
                args,
                ok: true,
                value: snapshot(value),
                durationMs: round(performance.now() - began),
              };
              if (violation !== undefined) entry.call.schemaViolation = violation;
              if (progress.length > 0) entry.call.progress = progress;
            }
            return value;
          } catch (thrown) {
            if (answered()) {
              entry.call = {
                global: ns.global,
                name,
                args,
                ok: false,
                message: renderThrown(thrown),
                durationMs: round(performance.now() - began),
              };
              const details = failureDetails(thrown);
              if (details?.code !== undefined) entry.call.code = details.code;
              if (details?.data !== undefined) entry.call.data = snapshot(details.data);
              if (progress.length > 0) entry.call.progress = progress;
            }
            throw thrown;
          }
        };
        Object.defineProperty(functions, name, { value: recorded, enumerable: true });
      }
      return ns.errorClass === undefined
        ? { global: ns.global, functions }
        : { global: ns.global, functions, errorClass: ns.errorClass };
    });
  const cassette = (options: { deterministic?: DeterministicSettings } = {}): Cassette => {
    const calls = [...entries].sort((a, b) => a.id - b.id || a.order - b.order).map((e) => e.call);
    return options.deterministic === undefined
      ? { version: CASSETTE_VERSION, calls }
      : { version: CASSETTE_VERSION, deterministic: options.deterministic, calls };
  };
  return { wrap, cassette };
}

// A cassette from a finished run's call records (for callers that did not wrap): unanswered calls become `pending`.
export function cassetteFromResult(
  result: RunResult,
  options: { deterministic?: DeterministicSettings } = {},
): Cassette {
  const calls: CassetteCall[] = [...result.calls]
    .sort((a, b) => a.id - b.id)
    .map((c) => {
      const base = { global: c.global, name: c.name, args: c.args };
      if (c.ok)
        return {
          ...base,
          ok: true,
          value: c.value ?? null,
          ...(c.progress === undefined ? {} : { progress: c.progress.map(progressCopy) }),
          durationMs: round(c.durationMs),
          ...(c.schemaViolation === undefined ? {} : { schemaViolation: c.schemaViolation }),
          ...(c.pause === undefined ? {} : { pause: { ...c.pause } }),
        };
      if (c.message === undefined) return { ...base, ok: false, pending: true, durationMs: round(c.durationMs) };
      return {
        ...base,
        ok: false,
        message: c.message,
        ...(c.errorCode === undefined ? {} : { code: c.errorCode }),
        ...(c.errorData === undefined ? {} : { data: c.errorData }),
        ...(c.progress === undefined ? {} : { progress: c.progress.map(progressCopy) }),
        ...(c.pause === undefined ? {} : { pause: { ...c.pause } }),
        durationMs: round(c.durationMs),
      };
    });
  return options.deterministic === undefined
    ? { version: CASSETTE_VERSION, calls }
    : { version: CASSETTE_VERSION, deterministic: options.deterministic, calls };
}

// A progress report as a cassette keeps it (its time is not replayed).
function progressCopy(note: ProgressNote): ProgressNote {
  const out: ProgressNote = { progress: note.progress };
  if (typeof note.total === 'number') out.total = note.total;
  if (typeof note.message === 'string') out.message = note.message;
  return out;
}
