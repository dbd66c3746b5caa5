import type { JsonValue } from '../../runtime/protocol/json-value.js';
import type { RunResult } from '../../runtime/protocol/run-result.js';
import { jsonText } from './json-text.js';
import { utf8Length } from './utf8-length.js';

export const EMPTY_RUN_TEXT = '(run_code completed with no output)';

export interface ModelView {
  // exactly what the run_code tool returns to the model for this run
  text: string;
  // UTF-8 size of `text`
  bytes: number;
  outcome: 'success' | 'failure';
}

// Levels written exactly as JSON.stringify(value, null, 2) would (a harness's own JSON.stringify gives up long before
// this); deeper levels are compact, so a 200 000-deep value is a few MB of text, not gigabytes of indentation.
export const MODEL_PRETTY_DEPTH = 1_000;

// Strings go to the model raw; everything else as 2-space JSON.
export function renderValueForModel(value: JsonValue): string {
  return typeof value === 'string' ? value : jsonText(value, { indent: 2, prettyDepth: MODEL_PRETTY_DEPTH });
}

// "What the model sees": logs joined, then the value; a failure is the error line plus the captured output.
export function modelView(result: RunResult): ModelView {
  let text: string;
  if (result.error !== undefined) {
    text = `code run failed (${result.error.kind}): ${result.error.message}`;
    if (result.logs.length > 0) text += `\n\nCaptured output:\n${result.logs.join('\n')}`;
  } else {
    const parts = [...result.logs];
    if (result.value !== undefined) parts.push(renderValueForModel(result.value));
    text = parts.join('\n');
    if (text === '') text = EMPTY_RUN_TEXT;
  }
  return { text, bytes: utf8Length(text), outcome: result.error === undefined ? 'success' : 'failure' };
}
