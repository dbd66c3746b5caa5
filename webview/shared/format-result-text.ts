import type { CallRecord, RunResult } from '../../runtime/protocol/run-result.js';
import { callLabel, callSummaryText, callTotal, failingCall } from './call-flags.js';
import { explainFailure } from './failure-kinds.js';
import { formatCount, formatDuration } from './format.js';
import { jsonText } from './json-text.js';
import { sandboxText } from './sandbox-summary.js';
import { untranslated } from './translate.js';
import { truncationOf, truncationText } from './truncation.js';

export interface TextOptions {
  timeoutMs?: number | undefined;
}

// The text/plain fallback caps each part so a huge run stays a readable summary; the rich output has everything.
const MAX_VALUE_CHARS = 100_000;
const MAX_LOG_CHARS = 200_000;
const MAX_CALL_LINES = 50;

// The text/plain rendering of a result, for viewers without the renderer (and for copy/paste). It stays English
// whatever the display language: the shared helpers get `untranslated`, so the text is stable for tools and tests.
const t = untranslated;

export function formatResultText(result: RunResult, options: TextOptions = {}): string {
  const out: string[] = [];
  if (result.error === undefined) out.push(`✓ succeeded in ${formatDuration(result.durationMs, t)}`);
  else {
    out.push(
      `✗ ${result.error.kind}: ${explainFailure(result.error, t, { ...options, durationMs: result.durationMs, failingCall: failingLabel(result) })}`,
    );
    const where =
      result.error.location === undefined
        ? ''
        : ` (line ${result.error.location.line}${result.error.location.column === undefined ? '' : `, column ${result.error.location.column}`})`;
    out.push(`${result.error.message}${where}`);
  }
  if (result.logs.length > 0) {
    out.push('', `--- printed output (${plural(result.logs.length, 'entry', 'entries')}) ---`);
    const stderr = new Set(result.stderrLogs ?? []);
    const logs = result.logs.map((entry, i) => (stderr.has(i) ? prefixLines(entry, '[stderr] ') : entry)).join('\n');
    out.push(clip(logs, MAX_LOG_CHARS));
  }
  const truncation = truncationOf(result);
  if (truncation !== undefined) out.push(`[${truncationText(truncation, t)}]`);
  if (result.value !== undefined)
    out.push('', '--- return value ---', clip(jsonText(result.value, { indent: 2 }), MAX_VALUE_CHARS));
  const total = callTotal(result);
  if (total > 0) {
    out.push('', `--- binding calls (${total}) ---`);
    const line = (call: CallRecord): void => {
      const status = call.ok ? 'ok' : `failed: ${(call.message ?? '').split('\n')[0] ?? ''}`;
      const marks = `${call.replayed === true ? ' [replayed]' : ''}${call.schemaViolation === undefined ? '' : ' [schema violation]'}`;
      out.push(
        `#${call.id} ${callLabel(call)} at ${formatDuration(call.startedAtMs, t)} for ${formatDuration(call.durationMs, t)}: ${status}${marks}`,
      );
    };
    for (const call of result.calls.slice(0, MAX_CALL_LINES)) line(call);
    const last = result.callSummary?.last ?? [];
    const hidden = total - Math.min(result.calls.length, MAX_CALL_LINES) - last.length;
    if (hidden > 0) out.push(`… ${hidden} more calls`);
    for (const call of last) line(call);
    const summary = callSummaryText(result, t);
    if (summary !== undefined) out.push(`[${summary}]`);
    for (const count of result.callSummary?.byBinding ?? [])
      out.push(`${callLabel(count)}: ${count.calls} calls, ${count.ok} ok, ${count.failed} failed`);
  }
  if (result.replay !== undefined) {
    const diverged = result.replay.divergedTotal ?? result.replay.diverged.length;
    out.push(`replay: ${result.replay.matched} matched, ${diverged} diverged, ${result.replay.unused} unused`);
  }
  const mode = result.mode === undefined ? '' : ` · mode ${result.mode}`;
  out.push(
    '',
    `${result.language} · ${formatDuration(result.durationMs, t)} · sandbox ${sandboxText(result.sandbox, t)}${mode}`,
  );
  return out.join('\n');
}

function failingLabel(result: RunResult): string | undefined {
  const call = failingCall(result);
  return call === undefined ? undefined : callLabel(call);
}

function prefixLines(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((line) => prefix + line)
    .join('\n');
}

function clip(text: string, max: number): string {
  return text.length <= max
    ? text
    : `${text.slice(0, max)}\n… (${text.length - max} more characters in the rich output)`;
}

// "1 entry" / "3 entries"
function plural(n: number, one: string, many: string): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}
