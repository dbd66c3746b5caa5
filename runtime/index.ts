// The public surface of the VS Code-free runtime core: the CLI (runtime/cli/), the extension and the web extension
// import only from here, and only what they use (docs/architecture.md draws the floors behind each name). Suites
// import the module they test directly.
export { type EngineChoice, type LogEntry, type Runtime, type RuntimeOptions, type SandboxLevel } from './api.js';
export { type BindingsHostState, type BindingsHostStatus } from './bindings-host/bindings-host.js';
export { cacheFolder as bindingsCacheFolder } from './bindings/build-cache.js';
export { type CallEvent } from './bindings/observe.js';
export { tempDirProblem } from './contract/environment.js';
export { LIMITS } from './contract/limits.js';
export { createRuntime } from './create-runtime.js';
export { mergeEvalFiles } from './eval/merge.js';
export { reportNotebook, summaryTable, transcriptName } from './eval/report.js';
export { type EvalModel, type EvalRun, replayProblems, runEval, type Shard, summarize } from './eval/run-eval.js';
export {
  ModelOptionsSchema,
  ModelOptionsTableSchema,
  modelOptionsFor,
  parseTasks,
  type ModelOptionsTable,
} from './eval/tasks.js';
export { makeDirsSync } from './files/make-dirs.js';
export { type ImportPlan } from './import/assemble.js';
export { comparedTexts, compareWithTranscript } from './import/compare.js';
export { describeImportProblem, ImportFailure, type ImportProblem } from './import/import-error.js';
export { planImport } from './import/import-transcripts.js';
export { readSourceText } from './import/source-text.js';
export { importedMetaOf, type ThenRecord } from './import/then-record.js';
export { type BindingTarget, parseMapEntry, parseMappingFile } from './import/tool-mapping.js';
export { type RunTraceInput, writeLinesAtomically, writeRunTrace } from './import/trace-writer.js';
export { FORMAT_TITLES, TRANSCRIPT_FORMATS, type TranscriptFormat } from './import/transcript-model.js';
export { type CellVerdict, verifyImportedNotebook } from './import/verify.js';
export { writeImportPlan } from './import/write-plan.js';
export { chunkedSink, forEachSlice, JSON_CHUNK_CHARS, writeJsonText } from './json/json-text.js';
export { encodeChecked } from './json/lossless.js';
export { type LoopOutcome, type LoopProgram, type ProgramRun, runAgentLoop } from './model/agent-loop.js';
export {
  type ChatMessage,
  type ChatOutcome,
  type ChatReply,
  type ChatRequest,
  type ModelClient,
  type ModelOptions,
  type ToolCall,
} from './model/chat-types.js';
export { loopTraceLines } from './model/loop-trace.js';
export {
  checkBaseUrl,
  DEFAULT_BASE_URLS,
  endpointClient,
  type EndpointProvider,
  KEY_VARIABLES,
  keyFromEnv,
  parseModelSpec,
  specLabel,
} from './model/model-spec.js';
export { LOOP_MODES, modelView } from './model/model-view.js';
export { argumentsObject, REPLY_LIMITS } from './model/reply-limits.js';
export { type Expectation, ExpectationSchema } from './notebook/expectation.js';
export { boundSavedOutputs, fitResult } from './notebook/output-budget.js';
export { describeProblems, parseNotebook } from './notebook/parse.js';
export { prettyJson } from './json/pretty-json.js';
export { RawSliceMemory } from './notebook/raw-memory.js';
export {
  CellIdSchema,
  type CellMetadata,
  CellMetadataSchema,
  CellModeSchema,
  type CodeCell,
  NOTEBOOK_FORMAT_VERSION,
  type NotebookCell,
  type NotebookFile,
  type NotebookMetadata,
  type NotebookMode,
  NotebookModeSchema,
  type SavedOutput,
} from './notebook/schema.js';
export { serializeNotebook } from './notebook/serialize.js';
export { errorMessage } from './output/error-message.js';
export { type ExpectationReport } from './protocol/expectation-report.js';
export { argsPathProblem } from './protocol/call-pause.js';
export { type JsonValue } from './protocol/json-value.js';
export {
  callCount,
  type CallRecord,
  type Language,
  LanguageSchema,
  type RunResult,
  RunResultSchema,
  type SandboxReport,
} from './protocol/run-result.js';
export { loadCassette } from './replay/cassette-file.js';
export { bubblewrapChoice } from './sandbox/probe.js';
export { renderSdk } from './sdk/index.js';
export { learnOutputs, readCassettes, withLearnedOutputs } from './sdk/learn-schema.js';
export { byCodeUnit, type SdkSource } from './sdk/sdk-source.js';
export { cellRunRequest, notebookBindingsPath, openNotebookSession } from './session/notebook-session.js';
export { cellCassetteFiles, defaultCassetteDir, type PlanOverride } from './session/plan.js';
export { type CellReport, runNotebookFile } from './session/run-notebook.js';
export {
  type DescribeOutcome,
  type RunLimits,
  type RunPlan,
  type RuntimeProvider,
  type Session,
  type SessionOutcome,
  type SessionRunRequest,
} from './session/session-types.js';
export { createSession } from './session/session.js';
export { expectationFromResult, writeRunCassette } from './testing/accept.js';
export { checkExpectation } from './testing/check.js';
export { discoverNotebooks } from './testing/discover.js';
export { cellDetails, jsonReport, junitReport, summaryLine } from './testing/reporters.js';
export {
  type CellTestResult,
  type NotebookTestResult,
  runTestSuite,
  testCells,
  testTitle,
} from './testing/run-suite.js';
export { parseShard, type ShardSpec } from './testing/shard.js';
