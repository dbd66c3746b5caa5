import type { SdkSource } from '../sdk/sdk-source.js';
import { encodeLossless } from '../json/lossless.js';
import type { JsonValue } from '../protocol/json-value.js';
import type { CallRecord, Language, RunResult } from '../protocol/run-result.js';
import { keptCalls } from './run-calls.js';
import { TRACE_VERSION } from './trace-format.js';
import { writeFileAtomically } from '../files/atomic-write.js';

export interface RunTraceInput {
  program: string;
  language: Language;
  result: RunResult;
  // the bindings module the run used, for tool descriptions and schemas
  module?: SdkSource;
  producer?: string;
  startedAt?: string;
  id?: string;
}

const round = (ms: number): number => Math.round(ms * 1000) / 1000;

// The JSONL trace of one run (docs/import.md): header, declared bindings, the program, its calls and its result.
export function runTraceLines(input: RunTraceInput): string[] {
  const records: Record<string, unknown>[] = [
    {
      type: 'ptc-trace',
      version: TRACE_VERSION,
      ...(input.producer === undefined ? {} : { producer: input.producer }),
    },
  ];
  const namespaces = bindingsOf({ module: input.module, calls: input.result.calls });
  if (namespaces.length > 0) records.push({ type: 'bindings', namespaces });
  records.push(
    ...programRecords({
      id: input.id ?? 'run-1',
      program: input.program,
      language: input.language,
      result: input.result,
      ...(input.startedAt === undefined ? {} : { startedAt: input.startedAt }),
    }),
  );
  return encodeRecords(records);
}

export interface ProgramRecordInput {
  id: string;
  program: string;
  language: Language;
  result: RunResult;
  startedAt?: string;
  model?: string;
  description?: string;
}

// One program's records: the program, its calls in issue order and its result.
export function programRecords(input: ProgramRecordInput): Record<string, unknown>[] {
  const { id } = input;
  const records: Record<string, unknown>[] = [];
  records.push({
    type: 'program',
    id,
    language: input.language,
    source: input.program,
    ...(input.model === undefined ? {} : { model: input.model }),
    ...(input.startedAt === undefined ? {} : { startedAt: input.startedAt }),
    ...(input.description === undefined ? {} : { description: input.description }),
  });
  const kept = keptCalls(input.result);
  for (const call of kept.calls) {
    const base = { type: 'call', program: id, id: call.id, global: call.global, name: call.name, args: call.args };
    const timing = { startedAtMs: round(call.startedAtMs), durationMs: round(call.durationMs) };
    if (call.ok) records.push({ ...base, ok: true, value: call.value ?? null, ...timing });
    else if (call.message === undefined) records.push({ ...base, ok: false, pending: true, ...timing });
    else records.push({ ...base, ok: false, message: call.message, ...timing });
  }
  const r = input.result;
  records.push({
    type: 'result',
    program: id,
    logs: r.logs,
    ...(r.stderrLogs === undefined ? {} : { stderrLogs: r.stderrLogs }),
    ...(r.value === undefined ? {} : { value: r.value }),
    ...(r.error === undefined ? {} : { error: { kind: r.error.kind, message: r.error.message } }),
    ...(kept.omitted > 0 ? { callsOmitted: kept.omitted } : {}),
    durationMs: round(r.durationMs),
  });
  return records;
}

export function encodeRecords(records: readonly Record<string, unknown>[]): string[] {
  return records.map((record) => {
    const encoded = encodeLossless(record);
    // every part is lossless JSON by the runtime's contract; a violation is a bug worth seeing
    if (!encoded.ok) throw new Error(`trace record is not lossless JSON: ${encoded.reason}`);
    return encoded.text;
  });
}

// Writes the trace atomically (temp file + rename), so a harness never reads half a trace.
export async function writeRunTrace(file: string, input: RunTraceInput): Promise<void> {
  await writeLinesAtomically(file, runTraceLines(input));
}

export async function writeLinesAtomically(file: string, lines: readonly string[]): Promise<void> {
  await writeFileAtomically(file, `${lines.join('\n')}\n`);
}

export function bindingsOf(input: {
  module?: SdkSource | undefined;
  calls: readonly CallRecord[];
}): Record<string, JsonValue>[] {
  if (input.module !== undefined) {
    return Object.entries(input.module.namespaces).map(([global, ns]) => ({
      global,
      ...(ns.errorClass === undefined
        ? {}
        : { errorClass: { name: ns.errorClass.name, memberNameProperty: ns.errorClass.memberNameProperty } }),
      functions: Object.entries(ns.functions).map(([name, fn]) => ({
        name,
        ...(fn.description === undefined ? {} : { description: fn.description }),
        ...(fn.input === undefined ? {} : { input: fn.input as JsonValue }),
        ...(fn.output === undefined ? {} : { output: fn.output as JsonValue }),
      })),
    }));
  }
  // without a module (a replay from a cassette alone), the calls name what was declared
  const byGlobal = new Map<string, Set<string>>();
  for (const call of input.calls) byGlobal.set(call.global, (byGlobal.get(call.global) ?? new Set()).add(call.name));
  return [...byGlobal].map(([global, names]) => ({ global, functions: [...names].map((name) => ({ name })) }));
}
