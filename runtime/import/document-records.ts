import { parse as parseYaml, YAMLParseError } from 'yaml';
import { ImportFailure } from './import-error.js';
import { type JsonRecord, parseRecords } from './json-records.js';
import { IMPORT_LIMITS } from './limits.js';
import type { SourceText } from './source-text.js';
import { looksLikeSse, sseRecords } from './stream-events.js';
import { errorMessage } from '../output/error-message.js';

// The records of a transcript file, whatever text it is: JSON or JSONL, a server-sent event stream as captured, or a
// YAML recording (VCR cassettes, as Python SDK test suites keep them).
export function documentRecords(source: SourceText, file: string): { records: JsonRecord[]; container: string } {
  const { text, label } = source;
  if (/\.ya?ml$/i.test(file) || /^(?:---\s*\n)?interactions:\s*$/m.test(text.slice(0, 4096)))
    return { records: yamlRecords(source), container: 'YAML' };
  if (looksLikeSse(text))
    return { records: sseRecords(text, { file: label, line: 1 }), container: 'server-sent events' };
  const records = parseRecords(source, /\.(jsonl|ndjson)$/i.test(file) ? { jsonl: true } : {});
  return { records, container: records.length > 1 || /\.(jsonl|ndjson)$/i.test(file) ? 'JSON Lines' : 'JSON' };
}

function yamlRecords({ text, label }: SourceText): JsonRecord[] {
  if (text.trim() === '') throw new ImportFailure({ file: label, line: 1, message: 'the file is empty' });
  const deep = flowDepthLine(text);
  if (deep !== undefined)
    throw new ImportFailure({
      file: label,
      line: deep,
      message: `nested deeper than ${IMPORT_LIMITS.maxDepth} levels`,
    });
  let value: unknown;
  try {
    // the core schema: no dates, no custom tags; aliases bounded so a small file cannot expand without limit
    value = parseYaml(text, { schema: 'core', maxAliasCount: 100, uniqueKeys: false });
  } catch (error) {
    if (error instanceof YAMLParseError) {
      const at = error.linePos?.[0];
      throw new ImportFailure({
        file: label,
        line: at?.line ?? 1,
        ...(at === undefined ? {} : { column: at.col }),
        message: `invalid YAML: ${error.message.split('\n')[0] ?? ''}`,
      });
    }
    throw new ImportFailure({ file: label, line: 1, message: `invalid YAML: ${errorMessage(error)}` });
  }
  // the record has no JSON text: places in it are named by field path
  return [{ value, file: label, text: '', line: 1 }];
}

// The line where flow brackets or indentation nest past the depth limit (a conservative count, quotes ignored).
function flowDepthLine(text: string): number | undefined {
  let depth = 0;
  let line = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a) line++;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > IMPORT_LIMITS.maxDepth) return line;
    } else if ((c === 0x5d || c === 0x7d) && depth > 0) depth--;
  }
  for (const [i, l] of text.split('\n').entries())
    if (l.length - l.trimStart().length > IMPORT_LIMITS.maxDepth * 8) return i + 1;
  return undefined;
}
