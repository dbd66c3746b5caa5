import path from 'node:path';
import type { Language } from '../protocol/run-result.js';
import { assemblePlan, type ImportPlan } from './assemble.js';
import { detectFormat } from './detect.js';
import { readAnthropic } from './format-anthropic.js';
import { readChat } from './format-chat.js';
import { readCodex } from './format-codex.js';
import { readDeepseek } from './format-deepseek.js';
import { readOpenAi } from './format-openai.js';
import { readPtcTrace } from './format-ptc-trace.js';
import type { ApiDocument } from './api-document.js';
import { apiDocuments } from './http-log.js';
import { ImportFailure, type ImportProblem } from './import-error.js';
import { documentRecords } from './document-records.js';
import type { JsonRecord } from './json-records.js';
import { SecretScrubber } from './secrets.js';
import { readSourceText } from './source-text.js';
import type { BindingTarget } from './tool-mapping.js';
import { type ExtractedTranscript, FORMAT_TITLES, type TranscriptFormat } from './transcript-model.js';

export interface ImportOptions {
  // transcript files, imported in this order into one notebook
  files: readonly string[];
  // how messages name each file (defaults to the path as given)
  labels?: readonly string[];
  // the notebook to write (.ptcnb); cassettes go to .ptc/cassettes/ next to it
  out: string;
  // skip detection: every file is in this format
  format?: TranscriptFormat;
  // the language of deepseek-harness programs (their logs do not say)
  language?: Language;
  mapping?: ReadonlyMap<string, BindingTarget>;
  // an existing bindings module to use instead of a generated stub
  bindings?: string;
}

export type ImportOutcome = { ok: true; plan: ImportPlan } | { ok: false; problem: ImportProblem; message: string };

// Reads, checks and assembles an import in memory; nothing is written (see writeImportPlan). Never throws for a bad
// transcript: that is `{ ok: false }` with one message naming the file, line and field.
export async function planImport(options: ImportOptions): Promise<ImportOutcome> {
  try {
    if (options.files.length === 0) throw new ImportFailure({ file: '(no file)', message: 'no transcript to import' });
    const scrubber = new SecretScrubber();
    const transcripts: ExtractedTranscript[] = [];
    for (const [i, file] of options.files.entries()) {
      const label = options.labels?.[i] ?? file;
      const source = await readSourceText(file, label);
      const { records, container } = documentRecords(source, file);
      for (const record of records) scrubber.harvest(record.value);
      const documents = apiDocuments(records, scrubber);
      // bodies logged as JSON text were not visible to the first harvest
      for (const d of documents) if (d.node.record.embeddedIn !== undefined) scrubber.harvest(d.node.value);
      const format = options.format ?? detectFormat(documents, label);
      const transcript = {
        ...readFormat(format, documents, label, options.language),
        shape: shapeOf(container, records, documents),
      };
      if (transcript.programs.length === 0) {
        throw new ImportFailure({
          file: label,
          line: 1,
          message: `no programs found: read as ${FORMAT_TITLES[format]}, it holds no ${PROGRAM_WORDS[format]}`,
        });
      }
      transcripts.push(transcript);
    }
    const plan = assemblePlan(transcripts, {
      notebookPath: path.resolve(options.out),
      mapping: options.mapping ?? new Map(),
      scrubber,
      ...(options.bindings === undefined ? {} : { bindings: path.resolve(options.bindings) }),
    });
    return { ok: true, plan };
  } catch (error) {
    if (error instanceof ImportFailure) return { ok: false, problem: error.problem, message: error.message };
    throw error;
  }
}

// How the file carried the API traffic, as the import reports it (e.g. "YAML, VCR cassette, streamed replies
// reassembled").
function shapeOf(container: string, records: readonly JsonRecord[], documents: readonly ApiDocument[]): string {
  const parts = [container];
  const first = records[0]?.value;
  const root =
    first !== null && typeof first === 'object' && !Array.isArray(first) ? (first as Record<string, unknown>) : {};
  if (Array.isArray(root.interactions)) parts.push('VCR cassette');
  else if (root.log !== null && typeof root.log === 'object') parts.push('HAR');
  else if (Array.isArray(root.resourceSpans)) parts.push('OpenTelemetry GenAI spans (OTLP JSON)');
  else if (documents.some((d) => d.role !== 'bare' && d.node.record.derivedFrom === undefined))
    parts.push('request/response log');
  if (documents.some((d) => d.node.record.derivedFrom !== undefined)) parts.push('streamed replies reassembled');
  return parts.join(', ');
}

const PROGRAM_WORDS: Record<TranscriptFormat, string> = {
  anthropic: 'code execution (server_tool_use) block',
  openai: '"program" or "code_interpreter_call" item',
  'openai-chat': 'tool call to a code-running tool (a function whose arguments hold "code")',
  codex: 'code-mode "exec" call (custom_tool_call)',
  deepseek: 'run_code tool/call event',
  'ptc-trace': '"program" record',
};

function readFormat(
  format: TranscriptFormat,
  documents: ApiDocument[],
  file: string,
  language: Language | undefined,
): ExtractedTranscript {
  switch (format) {
    case 'anthropic':
      return readAnthropic(documents, file);
    case 'openai':
      return readOpenAi(documents, file);
    case 'openai-chat':
      return readChat(documents, file);
    case 'codex':
      return readCodex(documents, file);
    case 'deepseek':
      return readDeepseek(documents, file, language === undefined ? {} : { language });
    case 'ptc-trace':
      return readPtcTrace(documents, file);
  }
}
