import { comparedTexts, compareWithTranscript, type RunResult, type ThenRecord } from '../../runtime/index.js';
import { THEN_NOW_TEXT_MAX, type ThenVsNow } from '../../webview/protocol/inspector-messages.js';

// The host-side verdict for a run of an imported cell (the page cannot run the comparison: it has no runtime code).
export function thenVsNowOf(then: ThenRecord, result: RunResult): ThenVsNow {
  const comparison = compareWithTranscript(then, result);
  const texts = comparedTexts(then, result);
  const cap = (text: string): string => (text.length > THEN_NOW_TEXT_MAX ? text.slice(0, THEN_NOW_TEXT_MAX) : text);
  return {
    agrees: comparison.agrees,
    differences: comparison.differences.map((d) => (d.length > 2_000 ? `${d.slice(0, 1_999)}…` : d)),
    ...(comparison.skipped === undefined ? {} : { skipped: comparison.skipped }),
    label: texts.label,
    thenText: cap(texts.thenText),
    nowText: cap(texts.nowText),
  };
}
