import { chunkedSink, writeJsonText, type RunResult } from '../index.js';
import { writeReport } from './report.js';
import { visibleJson } from './terminal-text.js';

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
