import type { ErrorClassSpec } from '../api.js';
import type { JsonValue } from '../protocol/json-value.js';
import type { FailureKind, Language } from '../protocol/run-result.js';

// The transcript formats `ptc import` reads.
export const TRANSCRIPT_FORMATS = ['anthropic', 'openai', 'openai-chat', 'codex', 'deepseek', 'ptc-trace'] as const;
export type TranscriptFormat = (typeof TRANSCRIPT_FORMATS)[number];

export const FORMAT_TITLES: Record<TranscriptFormat, string> = {
  anthropic: 'Anthropic Messages API (programmatic tool calling)',
  openai: 'OpenAI Responses API (programmatic tool calling)',
  'openai-chat': 'OpenAI Chat Completions tool-call history (programs in a code tool’s calls)',
  codex: 'Codex CLI session rollout (code mode `exec` scripts)',
  deepseek: 'deepseek-harness session log (PTC events)',
  'ptc-trace': 'PTC Playground trace',
};

// A tool as the transcript declares it (its schemas become the generated stub's schemas).
export interface ToolDefinition {
  name: string;
  // the namespace the trace recorded it under (ptc-trace only; other formats are mapped)
  global?: string;
  description?: string;
  inputSchema?: Record<string, JsonValue>;
  outputSchema?: Record<string, JsonValue>;
}

export type CallOutcome =
  { kind: 'ok'; value: JsonValue } | { kind: 'error'; message: string } | { kind: 'unanswered' };

// One tool call a program made, and what the tool answered then.
export interface RecordedCall {
  tool: string;
  global?: string;
  args: JsonValue;
  outcome: CallOutcome;
  durationMs?: number;
  // the call's id in the transcript
  id?: string;
  // what about this call could not be kept (an image in the answer, arguments that were not JSON)
  notes: string[];
}

// How the run's output is compared with what the transcript recorded.
//   stdout: printed lines against the code execution's stdout (Anthropic)
//   text: printed lines against the program output text (OpenAI)
//   model-text: the run_code text the model would read, as the harness renders it (deepseek-harness)
//   result: logs, value and failure kind exactly (PTC trace)
export type CompareMode = 'stdout' | 'text' | 'model-text' | 'result';

// What the program's run produced in the transcript ("then").
export interface RecordedOutcome {
  compare: CompareMode;
  logs: string[];
  stderrLogs?: number[];
  value?: JsonValue;
  error?: { kind: FailureKind; message: string };
  // the verbatim text the model was given back, when the format records one
  modelText?: string;
  // a part of the comparison that cannot be made, and why (e.g. stdout stored encrypted)
  skipped?: string;
}

export type ProgramAdapter = 'none' | 'anthropic-python' | 'openai-javascript' | 'codex-javascript';

// One program the model wrote, with everything the notebook needs to reproduce it.
export interface ExtractedProgram {
  format: TranscriptFormat;
  file: string;
  line: number;
  id?: string;
  // undefined: the program's language cannot run here (`languageLabel` names it)
  language: Language | undefined;
  languageLabel: string;
  languageGuessed?: boolean;
  code: string | undefined;
  // programs that ran before this one in the same container and left state it uses (run first, output hidden)
  prelude?: string[];
  task?: string;
  model?: string;
  timestamps?: Record<string, string>;
  ids?: Record<string, string>;
  calls: RecordedCall[];
  outcome?: RecordedOutcome;
  adapter: ProgramAdapter;
  // facts worth knowing (shown on the cell)
  notes: string[];
  // what keeps this program from being reproduced as recorded (shown as a warning on the cell)
  unreproducible: string[];
}

export interface DeclaredNamespaceInfo {
  global: string;
  errorClass?: ErrorClassSpec;
}

export interface ExtractedTranscript {
  format: TranscriptFormat;
  file: string;
  // how the file carried the traffic (set by the importer, e.g. "JSON Lines, streamed replies reassembled")
  shape?: string;
  programs: ExtractedProgram[];
  tools: ToolDefinition[];
  // namespaces a PTC trace declared (with their error classes)
  namespaces?: DeclaredNamespaceInfo[];
  // a format-wide error class (deepseek-harness: ToolCallError with toolName)
  errorClass?: ErrorClassSpec;
}
