// Models in the loop: provider-neutral chat, the HTTP clients, the model view, the agent loop and its trace.
export type * from './chat-types.js';
export { openAiClient, type EndpointOptions } from './openai-client.js';
export { anthropicClient } from './anthropic-client.js';
export { openAiResponsesClient } from './openai-responses-client.js';
export { DEFAULT_HTTP_LIMITS, preview, scrubber, type HttpLimits } from './model-http.js';
export { REPLY_LIMITS, argumentsObject } from './reply-limits.js';
export {
  checkBaseUrl,
  DEFAULT_BASE_URLS,
  ENDPOINT_PROVIDERS,
  endpointClient,
  KEY_VARIABLES,
  keyFromEnv,
  parseModelSpec,
  specLabel,
  type EndpointProvider,
  type ModelSpec,
} from './model-spec.js';
export {
  LOOP_MODES,
  modelView,
  RUN_CODE_TOOL,
  type DirectTarget,
  type LoopMode,
  type ModelView,
} from './model-view.js';
export {
  DEFAULT_MAX_RESULT_CHARS,
  DEFAULT_MAX_TOKENS,
  runAgentLoop,
  type LoopOptions,
  type LoopOutcome,
  type LoopProgram,
  type LoopStatus,
  type LoopStep,
  type LoopTurn,
  type ProgramRun,
} from './agent-loop.js';
export { loopTraceLines, type LoopTraceInput } from './loop-trace.js';
export { sessionPrograms, type SessionProgramsOptions } from './session-programs.js';
