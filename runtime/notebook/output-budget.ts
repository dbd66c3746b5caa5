import { jsonByteLength } from '../json/json-size.js';
import { encodeChecked } from '../json/lossless.js';
import type { JsonValue } from '../protocol/json-value.js';
import type { BindingCallCount, CallRecord, CallSummary, RunResult } from '../protocol/run-result.js';
import type { SavedOutput } from './schema.js';

// The per-cell output budget: a cell's result as shown (the output item) and as saved in `.ptcnb` is at most this many
// bytes of the file (JSON as the notebook writes it), whatever the program printed, returned or called. Documented in
// README ("The notebook format").
export const CELL_OUTPUT_BUDGET_BYTES = 1024 * 1024;

// Calls kept one by one in a trimmed result (the rest are counted per binding in callSummary).
const TRIMMED_CALLS = 100;
// A single printed line or failure message kept in a trimmed result is cut to this many characters.
const LINE_CHARS = 8 * 1024;

export interface FittedResult {
  result: RunResult;
  // what was left out, in plain words; absent when the result fit as it was
  note?: string;
}

// A saved result sits five levels deep in the file (cells[i].outputs[j].result), indented by two spaces a level.
const FILE_INDENT = 10;

// What a result costs in the file as serializeNotebook writes it (2-space indent): the budget is about file bytes.
// Native JSON.stringify measures a 1 MiB result in milliseconds (this runs for every result a cell shows, Stop's
// latency included); a value too deep for it is measured compactly, which the file's compact deep levels match.
function bytesOf(result: RunResult): number {
  let text: string;
  try {
    text = JSON.stringify(result, null, 2);
  } catch {
    return Buffer.byteLength(encodeChecked(result as unknown as JsonValue, 0), 'utf8');
  }
  let lines = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines++;
  return Buffer.byteLength(text, 'utf8') + lines * FILE_INDENT;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

function countsOf(calls: readonly CallRecord[]): BindingCallCount[] {
  const counts = new Map<string, BindingCallCount>();
  for (const call of calls) {
    const key = `${call.global}\0${call.name}`;
    let count = counts.get(key);
    if (count === undefined)
      counts.set(key, (count = { global: call.global, name: call.name, calls: 0, ok: 0, failed: 0 }));
    count.calls++;
    if (call.ok) count.ok++;
    else if (call.message !== undefined) count.failed++;
  }
  return [...counts.values()];
}

// Keeps the first `keep` calls one by one; every call stays counted (total, per binding), none is silently lost.
function keepCalls(result: RunResult, keep: number): RunResult {
  const summary = result.callSummary;
  const all = summary === undefined ? result.calls : [...result.calls, ...summary.last];
  const total = summary?.total ?? result.calls.length;
  if (result.calls.length <= keep && summary === undefined) return result;
  const kept = result.calls.slice(0, keep);
  const next: CallSummary = {
    total,
    omitted: total - kept.length,
    byBinding: summary?.byBinding ?? countsOf(all),
    last: [],
  };
  return { ...result, calls: kept, callSummary: next };
}

function cut(text: string): string {
  return text.length <= LINE_CHARS ? text : `${text.slice(0, LINE_CHARS)}…`;
}

// Keeps printed lines from the start until half the budget is used; returns how many were dropped or cut.
function trimLogs(result: RunResult, budget: number): { result: RunResult; dropped: number; cut: number } {
  const logs: string[] = [];
  let used = 0;
  let cutCount = 0;
  for (const line of result.logs) {
    const kept = cut(line);
    const cost = kept.length * 3 + 3;
    if (used + cost > budget) break;
    if (kept !== line) cutCount++;
    logs.push(kept);
    used += cost;
  }
  const stderr = result.stderrLogs?.filter((i) => i < logs.length);
  const next: RunResult = { ...result, logs };
  if (stderr === undefined || stderr.length === 0) delete next.stderrLogs;
  else next.stderrLogs = stderr;
  return { result: next, dropped: result.logs.length - logs.length, cut: cutCount };
}

// Fits a result into `budget` bytes of JSON, dropping the least telling parts first: call records beyond the first
// few (their counts stay), then all of them, then printed lines from the end, then the return value. The failure
// and the facts of the run (duration, mode, sandbox) always stay.
export function fitResult(result: RunResult, budget: number = CELL_OUTPUT_BUDGET_BYTES): FittedResult {
  const original = bytesOf(result);
  if (original <= budget) return { result };
  const dropped: string[] = [];
  let fitted = result;
  if (fitted.error !== undefined && fitted.error.message.length > LINE_CHARS)
    fitted = { ...fitted, error: { ...fitted.error, message: cut(fitted.error.message) } };
  const callsBefore = fitted.calls.length + (fitted.callSummary?.last.length ?? 0);
  for (const keep of [TRIMMED_CALLS, 0]) {
    if (bytesOf(fitted) <= budget) break;
    fitted = keepCalls(fitted, keep);
  }
  const callsDropped = callsBefore - fitted.calls.length;
  if (callsDropped > 0) dropped.push(`${callsDropped} call record(s) (every call is still counted per binding)`);
  if (bytesOf(fitted) > budget && fitted.logs.length > 0) {
    const trimmed = trimLogs(fitted, Math.floor(budget / 2));
    fitted = trimmed.result;
    if (trimmed.dropped > 0) dropped.push(`${trimmed.dropped} of ${result.logs.length} printed line(s)`);
    if (trimmed.cut > 0) dropped.push(`the end of ${trimmed.cut} long printed line(s)`);
  }
  if (bytesOf(fitted) > budget && fitted.value !== undefined) {
    const valueBytes = jsonByteLength(fitted.value);
    fitted = { ...fitted };
    delete fitted.value;
    dropped.push(`the return value (${formatBytes(valueBytes)})`);
  }
  if (bytesOf(fitted) > budget) {
    // only a pathological failure or sandbox report is left; keep the kind and a short message
    fitted = { ...fitted, logs: [], calls: [] };
    delete fitted.stderrLogs;
    if (fitted.error !== undefined)
      fitted.error = { kind: fitted.error.kind, message: fitted.error.message.slice(0, 1024) };
    fitted.sandbox = {
      ...fitted.sandbox,
      mechanisms: fitted.sandbox.mechanisms.slice(0, 8).map((m) => m.slice(0, 200)),
    };
    delete fitted.sandbox.missing;
    dropped.push('everything else but the outcome');
  }
  return {
    result: fitted,
    note: `This result (${formatBytes(original)}) is over the ${formatBytes(budget)} per-cell output budget; left out: ${dropped.join(', ')}.`,
  };
}

// Byte length of one saved output as JSON (what it costs in the file).
export function savedOutputBytes(output: SavedOutput): number {
  return jsonByteLength(output as unknown as JsonValue);
}

// A notebook from elsewhere may hold outputs of any size: each one over the budget is replaced by a note (the cell's
// source and metadata are never touched), so the notebook opens and a save writes a file within the budget.
export function boundSavedOutputs(
  outputs: readonly SavedOutput[],
  budget: number = CELL_OUTPUT_BUDGET_BYTES,
): SavedOutput[] {
  let used = 0;
  return outputs.map((output) => {
    const bytes = savedOutputBytes(output);
    if (used + bytes <= budget) {
      used += bytes;
      return output;
    }
    const message = `The saved ${output.kind === 'result' ? 'result' : 'message'} (${formatBytes(bytes)}) was over the ${formatBytes(budget)} per-cell output budget and was not loaded. Run the cell again to see its result.`;
    used += message.length;
    return { kind: 'error', message };
  });
}
