import {
  callCount,
  chunkedSink,
  forEachSlice,
  JSON_CHUNK_CHARS,
  writeJsonText,
  type CallRecord,
  type RunResult,
} from '../index.js';
import { visibleJson, visibleText } from './terminal-text.js';

// Call lines shown one by one; the rest are counted.
const SHOWN_CALLS = 50;

// A readable report of a run for terminals: logs, value, failure with a code frame, calls, footer. Written in pieces
// (a 64 MiB log is never copied into one report string), with every program-controlled text made visible.
export function writeReport(result: RunResult, program: string, sink: (piece: string) => void): void {
  const line = (text: string): void => sink(`${text}\n`);
  if (result.logs.length > 0) {
    line('── output ──');
    const stderr = new Set(result.stderrLogs ?? []);
    result.logs.forEach((entry, i) => {
      const prefix = stderr.has(i) ? '! ' : '  ';
      sink(prefix);
      // continuation lines of a multi-line entry stay under its prefix
      writeVisible(entry, sink, prefix);
      sink('\n');
    });
  }
  if (result.error !== undefined) {
    line(`── failed: ${result.error.kind} ──`);
    line(visibleText(result.error.message));
    const frame = codeFrame(program, result.error.location?.line, result.error.location?.column);
    if (frame.length > 0) {
      line('');
      for (const text of frame) line(text);
    }
  } else if ('value' in result && result.value !== undefined) {
    line('── value ──');
    if (typeof result.value === 'string') writeVisible(result.value, sink, '');
    else writeJsonText(result.value, (piece) => sink(visibleJson(piece)), { indent: 2 });
    sink('\n');
  } else {
    line('── completed (no value) ──');
  }
  writeCalls(result, line);
  if (result.replay !== undefined) {
    const { matched, diverged, divergedTotal, unused } = result.replay;
    line(`── replay: ${matched} matched, ${divergedTotal ?? diverged.length} diverged, ${unused} unused ──`);
  }
  const s = result.sandbox;
  line(
    `── ${result.durationMs.toFixed(0)} ms${result.pausedMs === undefined || result.pausedMs < 1 ? '' : ` (${result.pausedMs.toFixed(0)} ms paused)`} · sandbox ${s.enforcement} (network ${s.network}, filesystem ${s.filesystem}, child processes ${s.childProcess})${s.isolation === 'wasm' ? ` · ${s.engine ?? 'wasm'} engine (WebAssembly)` : ''}${result.mode ? ` · ${result.mode}` : ''} ──`,
  );
}

function writeCalls(result: RunResult, line: (text: string) => void): void {
  const total = callCount(result);
  if (total === 0) return;
  line(`── ${total} binding call(s) ──`);
  const callLine = (call: CallRecord): void => {
    const status = call.ok
      ? 'ok'
      : call.message === undefined
        ? 'not answered'
        : `failed: ${visibleText(call.message, { newlines: false })}`;
    line(
      `  #${call.id} ${visibleText(`${call.global}.${call.name}`, { newlines: false })} ${call.durationMs.toFixed(1)} ms ${status}${call.replayed ? ' (replayed)' : ''}`,
    );
    // why the call waited and who decided (an approval, a fork's recorded prefix or edit)
    if (call.pause !== undefined)
      line(
        `     ${call.pause.reason}: ${call.pause.decision} by ${call.pause.by}${call.pause.args === undefined ? '' : ' (arguments edited)'}${call.pause.by === 'user' ? `, waited ${call.pause.pausedMs.toFixed(0)} ms` : ''}`,
      );
    if (call.schemaViolation !== undefined)
      line(`     output schema violated: ${visibleText(call.schemaViolation, { newlines: false })}`);
  };
  for (const call of result.calls.slice(0, SHOWN_CALLS)) callLine(call);
  const summary = result.callSummary;
  const last = summary?.last ?? [];
  const hidden = total - Math.min(result.calls.length, SHOWN_CALLS) - last.length;
  if (hidden > 0)
    line(
      `  … ${hidden} more${summary === undefined ? '' : ` (the first ${result.calls.length} are in --json's calls; the rest are counted below)`}`,
    );
  for (const call of last) callLine(call);
  if (summary === undefined) return;
  for (const count of summary.byBinding) {
    line(
      `  ${visibleText(`${count.global}.${count.name}`, { newlines: false })}: ${count.calls} call(s), ${count.ok} ok, ${count.failed} failed`,
    );
  }
}

// Program text a slice at a time (a 64 MiB entry is never copied whole), each line break followed by `prefix`.
function writeVisible(text: string, sink: (piece: string) => void, prefix: string): void {
  forEachSlice(text, JSON_CHUNK_CHARS, (part) => {
    const shown = visibleText(part);
    sink(prefix === '' ? shown : shown.replaceAll('\n', `\n${prefix}`));
  });
}

// The whole report as one string (tests, small results).
export function formatReport(result: RunResult, program: string): string {
  const pieces: string[] = [];
  writeReport(result, program, (piece) => pieces.push(piece));
  return pieces.join('');
}

// Three lines of context around a 1-based line, with a caret under the column (source lines made visible).
function codeFrame(program: string, line: number | undefined, column: number | undefined): string[] {
  if (line === undefined) return [];
  const lines = program.split('\n');
  if (line < 1 || line > lines.length) return [];
  const from = Math.max(1, line - 2);
  const to = Math.min(lines.length, line + 2);
  const width = String(to).length;
  const frame: string[] = [];
  for (let n = from; n <= to; n++) {
    const source = lines[n - 1] ?? '';
    frame.push(`${n === line ? '>' : ' '} ${String(n).padStart(width)} | ${visibleText(source, { newlines: false })}`);
    // the caret counts the escapes shown before the column
    const before = visibleText(source.slice(0, Math.max(0, (column ?? 1) - 1)), { newlines: false });
    if (n === line && column !== undefined) frame.push(`  ${' '.repeat(width)} | ${' '.repeat(before.length)}^`);
  }
  return frame;
}

// Prints one result as `--json` (one line of JSON) or the readable report, in chunks: never one string of the whole
// result, never recursion. JSON escapes C0 controls itself; DEL, C1 and bidi controls become \u escapes here, so even
// `--json` in a terminal cannot drive it (the parsed text is unchanged).
export function printResult(
  result: RunResult,
  options: { json: boolean; program: string; write: (text: string) => void },
): void {
  const out = chunkedSink(options.write);
  if (options.json) {
    writeJsonText(result, (piece) => out.push(visibleJson(piece)));
    out.push('\n');
  } else writeReport(result, options.program, out.push);
  out.flush();
}
