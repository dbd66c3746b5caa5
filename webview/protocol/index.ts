// The webview's boundary schemas, imported by the extension host (renderer messaging, inspector panel).
export { RESULT_MIME, ResultPayloadSchema, parseResultPayload } from './result-payload.js';
export type { ResultPayload, PayloadParse } from './result-payload.js';
export {
  MAX_PROBLEM_TEXT,
  PROBLEM_MIME,
  PROBLEM_ACTIONS,
  ProblemPayloadSchema,
  parseProblemPayload,
  problemSegments,
} from './problem-payload.js';
export type { FileLocation, ProblemAction, ProblemPayload, ProblemLink } from './problem-payload.js';
export {
  RENDERER_ID,
  RendererToHostMessageSchema,
  HostToRendererMessageSchema,
  parseRendererToHost,
  parseHostToRenderer,
} from './renderer-messages.js';
export type {
  RendererToHostMessage,
  HostToRendererMessage,
  RendererAction,
  MessageParse,
} from './renderer-messages.js';
export {
  INSPECTOR_VIEW_TYPE,
  InspectorRunSchema,
  HostToInspectorMessageSchema,
  InspectorToHostMessageSchema,
  parseHostToInspector,
  parseInspectorToHost,
  encodeHostToInspector,
} from './inspector-messages.js';
export type {
  InspectorRun,
  HostToInspectorMessage,
  InspectorToHostMessage,
  HostToInspectorEnvelope,
} from './inspector-messages.js';
export {
  InspectorStateSchema,
  parseInspectorState,
  persistedInspectorState,
  EMPTY_INSPECTOR_STATE,
  MAX_KEPT_RUNS,
  INSPECTOR_TABS,
} from './inspector-state.js';
export type { InspectorState, InspectorTab } from './inspector-state.js';
// the run's result schema is the runtime's own (browser-safe): no mirror
export { checkJsonValue, JsonValueSchema } from '../../runtime/protocol/json-value.js';
export { FAILURE_KINDS, RunResultSchema } from '../../runtime/protocol/run-result.js';
export { L10nBundleSchema, L10N_LIMITS, parseL10nBundle } from './l10n-bundle.js';
export type { L10nBundle } from './l10n-bundle.js';
