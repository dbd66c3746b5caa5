// `ptc import`: agent transcripts (Anthropic, OpenAI, deepseek-harness, PTC traces) as replayable notebooks.
export { planImport, type ImportOptions, type ImportOutcome } from './import-transcripts.js';
export { writeImportPlan, type WriteOutcome } from './write-plan.js';
export type { ImportPlan, PlannedCell, PlannedFile } from './assemble.js';
export { describeImportProblem, type ImportProblem } from './import-error.js';
export { parseMapEntry, parseMappingFile, type BindingTarget } from './tool-mapping.js';
export { TRANSCRIPT_FORMATS, FORMAT_TITLES, type TranscriptFormat } from './transcript-model.js';
export { comparedTexts, compareWithTranscript, type Comparison } from './compare.js';
export { importedMetaOf, ThenRecordSchema, type ImportedMeta, type ThenRecord, type ThenCall } from './then-record.js';
export { runCodeText } from './model-text.js';
export { runTraceLines, writeRunTrace, type RunTraceInput } from './trace-writer.js';
export { TRACE_VERSION } from './trace-format.js';
export { readSourceText } from './source-text.js';
export { verifyImportedNotebook, type CellVerdict, type VerifyOutcome } from './verify.js';
