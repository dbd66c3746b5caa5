import { prettyJson } from '../json/pretty-json.js';
import type { RunResult } from '../protocol/run-result.js';

export const EMPTY_RUN_TEXT = '(run_code completed with no output)';

// The run_code text a harness hands the model for a run: logs then the value (strings raw, other JSON 2-space), or
// the failure line and the captured output. The same rendering as the inspector's "What the model sees".
export function runCodeText(result: Pick<RunResult, 'logs' | 'value' | 'error'>): string {
  if (result.error !== undefined) {
    const head = `code run failed (${result.error.kind}): ${result.error.message}`;
    return result.logs.length > 0 ? `${head}\n\nCaptured output:\n${result.logs.join('\n')}` : head;
  }
  const parts = [...result.logs];
  if (result.value !== undefined)
    parts.push(typeof result.value === 'string' ? result.value : prettyJson(result.value));
  const text = parts.join('\n');
  return text === '' ? EMPTY_RUN_TEXT : text;
}
