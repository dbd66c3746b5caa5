import type { RunResult } from '../protocol/run-result.js';

// A readable report of a run for terminals: logs, value, failure with a code frame, calls, footer.
export function formatReport(result: RunResult, program: string): string {
  const out: string[] = [];
  if (result.logs.length > 0) {
    out.push('── output ──');
    const stderr = new Set(result.stderrLogs ?? []);
    result.logs.forEach((line, i) => out.push(stderr.has(i) ? `! ${line}` : `  ${line}`));
  }
  if (result.error !== undefined) {
    out.push(`── failed: ${result.error.kind} ──`, result.error.message);
    const frame = codeFrame(program, result.error.location?.line, result.error.location?.column);
    if (frame.length > 0) out.push('', ...frame);
  } else if ('value' in result && result.value !== undefined) {
    out.push('── value ──', typeof result.value === 'string' ? result.value : JSON.stringify(result.value, null, 2));
  } else {
    out.push('── completed (no value) ──');
  }
  if (result.calls.length > 0) {
    out.push(`── ${result.calls.length} binding call(s) ──`);
    for (const call of result.calls.slice(0, 50)) {
      const status = call.ok ? 'ok' : `failed: ${call.message ?? ''}`;
      out.push(`  #${call.id} ${call.global}.${call.name} ${call.durationMs.toFixed(1)} ms ${status}${call.replayed ? ' (replayed)' : ''}`);
      if (call.schemaViolation !== undefined) out.push(`     output schema violated: ${call.schemaViolation}`);
    }
    if (result.calls.length > 50) out.push(`  … ${result.calls.length - 50} more`);
  }
  if (result.replay !== undefined) {
    const { matched, diverged, unused } = result.replay;
    out.push(`── replay: ${matched} matched, ${diverged.length} diverged, ${unused} unused ──`);
  }
  const s = result.sandbox;
  out.push(
    `── ${result.durationMs.toFixed(0)} ms · sandbox ${s.enforcement} (network ${s.network}, filesystem ${s.filesystem}, child processes ${s.childProcess})${result.mode ? ` · ${result.mode}` : ''} ──`,
  );
  return `${out.join('\n')}\n`;
}

// Three lines of context around a 1-based line, with a caret under the column.
export function codeFrame(program: string, line: number | undefined, column: number | undefined): string[] {
  if (line === undefined) return [];
  const lines = program.split('\n');
  if (line < 1 || line > lines.length) return [];
  const from = Math.max(1, line - 2);
  const to = Math.min(lines.length, line + 2);
  const width = String(to).length;
  const frame: string[] = [];
  for (let n = from; n <= to; n++) {
    frame.push(`${n === line ? '>' : ' '} ${String(n).padStart(width)} | ${lines[n - 1] ?? ''}`);
    if (n === line && column !== undefined) frame.push(`  ${' '.repeat(width)} | ${' '.repeat(Math.max(0, column - 1))}^`);
  }
  return frame;
}
