import type { JsonValue } from '../protocol/json-value.js';
import type { JsonNode } from './json-node.js';
import { locate } from './json-records.js';
import type { CallOutcome, ExtractedProgram, RecordedCall, ToolDefinition } from './transcript-model.js';
import { jsonValueOf, textOfContent, valueFromToolText } from './values.js';

// What a format knows of a program when it meets it; the rest starts empty.
export type NewProgram = Pick<
  ExtractedProgram,
  'format' | 'file' | 'line' | 'id' | 'language' | 'languageLabel' | 'code'
>;

export function newProgram(p: NewProgram): ExtractedProgram {
  return {
    format: p.format,
    file: p.file,
    line: p.line,
    ...(p.id === undefined ? {} : { id: p.id }),
    language: p.language,
    languageLabel: p.languageLabel,
    code: p.code,
    calls: [],
    adapter: 'none',
    notes: [],
    unreproducible: [],
  };
}

// The program a recorded call names. Calls can name a program the transcript does not contain: it stands in without
// its text, saying why (`missing.reason`), at the first such call (`at`); `decorate` adds what the format knows then.
export function programOfCall(
  programs: Map<string, ExtractedProgram>,
  id: string,
  at: JsonNode,
  missing: Omit<NewProgram, 'line' | 'id' | 'code'> & {
    reason: string;
    decorate?: (program: ExtractedProgram) => void;
  },
): ExtractedProgram {
  let program = programs.get(id);
  if (program === undefined) {
    program = newProgram({
      format: missing.format,
      file: missing.file,
      line: locate(at.record, at.path).line,
      id,
      language: missing.language,
      languageLabel: missing.languageLabel,
      code: undefined,
    });
    program.unreproducible.push(missing.reason);
    missing.decorate?.(program);
    programs.set(id, program);
  }
  return program;
}

// Adds a tool definition once (the first definition of a name wins); a schema must be a JSON object.
export function collectTool(
  tools: Map<string, ToolDefinition>,
  tool: {
    name: string;
    description?: string | undefined;
    input?: JsonNode | undefined;
    output?: JsonNode | undefined;
    global?: string;
  },
): void {
  const key = `${tool.global ?? ''}\u0000${tool.name}`;
  if (tools.has(key)) return;
  const definition: ToolDefinition = { name: tool.name };
  if (tool.global !== undefined) definition.global = tool.global;
  if (tool.description !== undefined) definition.description = tool.description;
  const input = schemaOf(tool.input);
  const output = schemaOf(tool.output);
  if (input !== undefined) definition.inputSchema = input;
  if (output !== undefined) definition.outputSchema = output;
  tools.set(key, definition);
}

function schemaOf(node: JsonNode | undefined): Record<string, JsonValue> | undefined {
  if (node === undefined || node.value === null) return undefined;
  if (!node.isObject()) throw node.fail('expected a JSON Schema object');
  return jsonValueOf(node) as Record<string, JsonValue>;
}

// A tool's answer as `holder` records it: its text (an error when the `isError` field says so, else the value the
// text holds); other content (images, files) is noted on the call, since a binding cannot return it.
export function answerOutcome(
  call: RecordedCall,
  holder: JsonNode,
  fields: { content: string; isError?: string },
): CallOutcome {
  const { text, dropped } = textOfContent(holder.get(fields.content));
  if (dropped.length > 0)
    call.notes.push(`the answer also held ${dropped.join(', ')} content, which a binding cannot return`);
  return fields.isError !== undefined && holder.optBool(fields.isError) === true
    ? { kind: 'error', message: text }
    : { kind: 'ok', value: valueFromToolText(text) };
}

// Calls never answered in the transcript replay as calls that never settle: the cell says so.
export function noteUnanswered(program: ExtractedProgram): void {
  const open = program.calls.filter((c) => c.outcome.kind === 'unanswered');
  if (open.length === 0) return;
  const names = open.slice(0, 3).map((c) => `${c.tool}${c.id === undefined ? '' : ` (${c.id})`}`);
  program.unreproducible.push(
    `${open.length} tool call(s) were never answered in the transcript (${names.join(', ')}${open.length > 3 ? ', …' : ''}); a replay waits on them until the cell's deadline`,
  );
}

// An ISO timestamp from a log's time value: Unix seconds or milliseconds, or a date string; unparseable text is kept.
export function isoTime(value: string | number): string {
  if (typeof value === 'number') {
    const ms = value < 1e12 ? value * 1000 : value;
    const date = new Date(ms);
    return Number.isNaN(date.getTime()) ? String(value) : date.toISOString();
  }
  if (/^\d+(\.\d+)?$/.test(value)) return isoTime(Number(value));
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toISOString();
}
