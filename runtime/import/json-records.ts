import { lineColumn, scanJson, tooDeepAt } from '../json/json-scan.js';
import { offsetOfPath } from '../json/json-locate.js';
import { type FieldPath, formatField, ImportFailure } from './import-error.js';
import { IMPORT_LIMITS } from './limits.js';
import type { SourceText } from './source-text.js';

// One parsed JSON value of a transcript (a whole document, one JSONL line, or JSON embedded in a string field)
// and enough of its origin to name the line and field of anything inside it.
export interface JsonRecord {
  value: unknown;
  file: string;
  // the record's own text and the 1-based line it starts on in the file
  text: string;
  line: number;
  // set for JSON that was text inside another record's string field (an HTTP body, `arguments`)
  embeddedIn?: { record: JsonRecord; path: FieldPath };
  // set for a reply reassembled from streamed events: places are named from its first event
  derivedFrom?: JsonRecord;
}

export interface Located {
  file: string;
  line: number;
  column?: number;
  field?: string;
}

// A JSON document or JSONL lines; JSONL when the name says so or the first line is a complete value on its own.
export function parseRecords(source: SourceText, options: { jsonl?: boolean } = {}): JsonRecord[] {
  const { text, label } = source;
  if (text.trim() === '') throw new ImportFailure({ file: label, line: 1, message: 'the file is empty' });
  const jsonl = options.jsonl ?? looksLikeJsonl(text);
  if (!jsonl) return [parseRecord(text, label, 1)];
  const records: JsonRecord[] = [];
  let line = 0;
  let start = 0;
  while (start <= text.length) {
    line++;
    const end = text.indexOf('\n', start);
    const raw = text.slice(start, end === -1 ? text.length : end);
    start = end === -1 ? text.length + 1 : end + 1;
    const lineText = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (lineText.trim() === '') continue;
    if (records.length >= IMPORT_LIMITS.maxRecords)
      throw new ImportFailure({
        file: label,
        line,
        message: `more than ${IMPORT_LIMITS.maxRecords} JSONL records; split the transcript`,
      });
    const record = parseRecord(lineText, label, line);
    if (!isCommentOnly(record.value)) records.push(record);
  }
  return records;
}

// Parses the JSON held in a string field of another record (a logged HTTP body, tool-call `arguments`).
export function parseEmbedded(parent: JsonRecord, path: FieldPath, text: string): JsonRecord {
  const at = locate(parent, path);
  if (text.length > IMPORT_LIMITS.maxEmbeddedJsonBytes) {
    throw new ImportFailure({
      ...at,
      message: `holds ${text.length} characters of JSON text; at most ${IMPORT_LIMITS.maxEmbeddedJsonBytes} are parsed`,
    });
  }
  const parsed = parseChecked(text);
  if (!parsed.ok) {
    const inner = lineColumn(text, parsed.offset);
    throw new ImportFailure({
      ...at,
      message: `is not valid JSON text: ${parsed.message} (at line ${inner.line}, column ${inner.column} of the string)`,
    });
  }
  return { value: parsed.value, file: parent.file, text, line: parent.line, embeddedIn: { record: parent, path } };
}

// File, line, column and field name of a path inside a record (the nearest enclosing value that can be found).
export function locate(record: JsonRecord, path: FieldPath): Located {
  if (record.derivedFrom !== undefined) {
    const at = locate(record.derivedFrom, []);
    const inner = formatField(path);
    return {
      file: at.file,
      line: at.line,
      field: `the streamed reply that starts here${inner === undefined ? '' : ` → ${inner}`}`,
    };
  }
  if (record.embeddedIn !== undefined) {
    const outer = locate(record.embeddedIn.record, record.embeddedIn.path);
    const inner = formatField(path);
    return { ...outer, field: inner === undefined ? outer.field : `${outer.field ?? '(top level)'} → ${inner}` };
  }
  const field = formatField(path);
  const base: Located = { file: record.file, line: record.line, ...(field === undefined ? {} : { field }) };
  // a document read from YAML has no JSON text to point into: the field path names the place
  if (record.text === '') return base;
  const at = lineColumn(record.text, offsetOfPath(record.text, path).offset);
  return { ...base, line: record.line + at.line - 1, column: at.column };
}

// A located failure for a field of a record.
export function fieldFailure(record: JsonRecord, path: FieldPath, message: string): ImportFailure {
  return new ImportFailure({ ...locate(record, path), message });
}

function parseRecord(text: string, file: string, line: number): JsonRecord {
  const parsed = parseChecked(text);
  if (!parsed.ok) {
    const at = lineColumn(text, parsed.offset);
    throw new ImportFailure({
      file,
      line: line + at.line - 1,
      column: at.column,
      message: `invalid JSON: ${parsed.message}`,
    });
  }
  return { value: parsed.value, file, text, line };
}

type Checked = { ok: true; value: unknown } | { ok: false; offset: number; message: string };

// One JSON value within the depth limit (checked before the native parser, so it never recurses deeply), parsed once;
// otherwise the offset it went wrong at and why.
export function parseChecked(text: string): Checked {
  const deep = tooDeepAt(text, IMPORT_LIMITS.maxDepth);
  if (deep !== -1) return { ok: false, offset: deep, message: `nested deeper than ${IMPORT_LIMITS.maxDepth} levels` };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    // the strict iterative scanner says where and why (native messages vary between engines)
    const scan = scanJson(text, { spanDepth: 0, uniqueKeys: () => false });
    return scan.ok
      ? { ok: false, offset: 0, message: 'not valid JSON' }
      : { ok: false, offset: scan.offset, message: scan.message };
  }
}

// Why the text is not one JSON value within the depth limit, with the offset it went wrong at; undefined when fine.
export function jsonTextProblem(text: string): { offset: number; message: string } | undefined {
  const parsed = parseChecked(text);
  return parsed.ok ? undefined : { offset: parsed.offset, message: parsed.message };
}

function looksLikeJsonl(text: string): boolean {
  const start = text.search(/\S/);
  const end = text.indexOf('\n', start);
  if (end === -1 || text.slice(end).trim() === '') return false;
  const first = text.slice(start, end).trim();
  return jsonTextProblem(first) === undefined;
}

// `{"$comment": "..."}` lines document a JSONL file (fixtures cite their sources this way) and carry no data.
function isCommentOnly(value: unknown): boolean {
  return (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    Object.keys(value).length === 1 &&
    Object.hasOwn(value, '$comment')
  );
}
