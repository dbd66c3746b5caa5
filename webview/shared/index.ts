// DOM-free helpers shared by the renderer, the inspector and the extension host (text fallback, model view).
export { formatResultText } from './format-result-text.js';
export type { TextOptions } from './format-result-text.js';
export { modelView, renderValueForModel, EMPTY_RUN_TEXT } from './model-view.js';
export type { ModelView } from './model-view.js';
export { explainFailure, failureTitle } from './failure-kinds.js';
export { summarizeSandbox, sandboxText, enforcementText } from './sandbox-summary.js';
export { untranslated } from './translate.js';
export type { Translate } from './translate.js';
export { truncationOf, truncationText } from './truncation.js';
export { diffRuns } from './run-diff.js';
export type { RunDiff, CallDiffRow, Divergence } from './run-diff.js';
export {
  divergedCallIds,
  failingCall,
  callLabel,
  callTotal,
  keptCalls,
  failedCallCount,
  callSummaryText,
} from './call-flags.js';
export { canonicalJson, jsonEquals } from './canonical-json.js';
export { formatBytes, formatDuration, formatCount } from './format.js';
export { utf8Length } from './utf8-length.js';
export { jsonText } from './json-text.js';
export { cassetteRun, PENDING_MESSAGE } from './cassette-run.js';
export type { CassetteCallLike, CassetteRunOptions } from './cassette-run.js';
export { transcriptRun } from './transcript-run.js';
export type { TranscriptOutcomeLike, TranscriptRunOptions } from './transcript-run.js';
