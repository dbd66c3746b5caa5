import type { z } from 'zod';
import type { JsonValue } from '../protocol/json-value.js';
import { type JsonPath, lineColumn, pathKey, scanJson, type Span } from '../json/json-scan.js';
import { canonicalAt, isUnknownMetadataPath } from './layout.js';
import type { RawSliceMemory } from './raw-memory.js';
import { NOTEBOOK_FORMAT_VERSION, type NotebookFile, NotebookFileSchema } from './schema.js';
import { errorMessage } from '../output/error-message.js';

export type NotebookProblemKind = 'syntax' | 'version' | 'schema';

// One reason a file is not a readable notebook, pointing at the line and field.
export interface NotebookProblem {
  kind: NotebookProblemKind;
  message: string;
  // dotted field path such as `cells[2].language`, when the problem is about a field
  field?: string;
  line?: number;
  column?: number;
}

export type ParseNotebookResult = { ok: true; notebook: NotebookFile } | { ok: false; problems: NotebookProblem[] };

const MAX_PROBLEMS = 20;
const SPAN_DEPTH = 6;

// Structural objects must not repeat keys (a silently dropped duplicate `cells` would lose data).
function structuralObject(path: JsonPath): boolean {
  const [a, , c] = path;
  if (path.length === 0) return true;
  if (path.length === 1) return a === 'metadata';
  if (a !== 'cells') return false;
  if (path.length === 2) return true;
  if (path.length === 3) return c === 'metadata';
  return path.length === 4 && c === 'outputs';
}

// `cells[2].metadata.id` style paths for messages.
export function formatFieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (typeof segment === 'string' && /^[A-Za-z_$][\w$]*$/.test(segment))
      out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(String(segment))}]`;
  }
  return out === '' ? '(top level)' : out;
}

function describeJson(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  const shown = JSON.stringify(value);
  const short = shown.length > 40 ? `${shown.slice(0, 37)}...` : shown;
  return `${typeof value === 'string' ? 'the string' : `the ${typeof value}`} ${short}`;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current = root;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
}

function quoteList(values: readonly unknown[]): string {
  const quoted = values.map((v) => JSON.stringify(v));
  return quoted.length <= 2
    ? quoted.join(' or ')
    : `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1] as string}`;
}

function issueMessages(issue: z.core.$ZodIssue, root: unknown): { path: PropertyKey[]; message: string }[] {
  const path = [...issue.path];
  const got = valueAt(root, path);
  switch (issue.code) {
    case 'invalid_type':
      return [
        {
          path,
          message:
            got === undefined
              ? `missing required field (expected ${article(issue.expected)})`
              : `expected ${article(issue.expected)}, got ${describeJson(got)}`,
        },
      ];
    case 'invalid_value':
      return [
        {
          path,
          message:
            got === undefined
              ? `missing required field (expected ${quoteList(issue.values)})`
              : `expected ${quoteList(issue.values)}, got ${describeJson(got)}`,
        },
      ];
    case 'unrecognized_keys': {
      const hint =
        path.length === 2 && path[0] === 'cells'
          ? ' (extra data belongs in the cell\'s "metadata")'
          : path.length === 0
            ? ' (extra data belongs in "metadata")'
            : '';
      return issue.keys.map((key) => ({ path: [...path, key], message: `unknown field${hint}` }));
    }
    case 'invalid_union': {
      // zod reports a bad discriminator with the allowed values in `options`
      const options: unknown = (issue as { options?: unknown }).options;
      if (Array.isArray(options)) {
        return [
          {
            path,
            message:
              got === undefined
                ? `missing required field (expected ${quoteList(options)})`
                : `expected ${quoteList(options)}, got ${describeJson(got)}`,
          },
        ];
      }
      return [{ path, message: issue.message }];
    }
    default:
      return [{ path, message: issue.message }];
  }
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

// Nearest recorded source position for a path (the value itself, else its closest ancestor).
function locate(
  text: string,
  spans: Map<string, Span>,
  path: readonly PropertyKey[],
): { line: number; column: number } | undefined {
  for (let len = Math.min(path.length, SPAN_DEPTH); len >= 0; len--) {
    const span = spans.get(pathKey(path.slice(0, len) as JsonPath));
    if (span !== undefined) return lineColumn(text, span.start);
  }
  return undefined;
}

function versionProblem(version: unknown): NotebookProblem | undefined {
  if (version === NOTEBOOK_FORMAT_VERSION) return undefined;
  if (version === undefined) {
    return {
      kind: 'version',
      field: 'version',
      message: 'missing "version": this does not look like a PTC Playground notebook',
    };
  }
  if (typeof version === 'number' && Number.isInteger(version) && version > NOTEBOOK_FORMAT_VERSION) {
    return {
      kind: 'version',
      field: 'version',
      message: `written by a newer PTC Playground (notebook format version ${version}); this version reads format version ${NOTEBOOK_FORMAT_VERSION}. Update the extension to open it`,
    };
  }
  return {
    kind: 'version',
    field: 'version',
    message: `expected ${NOTEBOOK_FORMAT_VERSION}, got ${describeJson(version)}`,
  };
}

// Parses `.ptcnb` text. A zero-byte (or blank) file is an empty notebook; anything unreadable is a list of problems.
export function parseNotebook(text: string, memory?: RawSliceMemory): ParseNotebookResult {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.trim() === '') return { ok: true, notebook: { version: NOTEBOOK_FORMAT_VERSION, metadata: {}, cells: [] } };
  const scan = scanJson(body, { spanDepth: SPAN_DEPTH, uniqueKeys: structuralObject });
  if (!scan.ok) {
    return {
      ok: false,
      problems: [{ kind: 'syntax', message: `invalid JSON: ${scan.message}`, ...lineColumn(body, scan.offset) }],
    };
  }
  let root: unknown;
  try {
    root = JSON.parse(body);
  } catch (error) {
    return {
      ok: false,
      problems: [{ kind: 'syntax', message: `invalid JSON: ${errorMessage(error)}` }],
    };
  }
  if (root === null || typeof root !== 'object' || Array.isArray(root)) {
    return {
      ok: false,
      problems: [
        {
          kind: 'schema',
          message: `expected a JSON object at the top level, got ${describeJson(root)}`,
          line: 1,
          column: 1,
        },
      ],
    };
  }
  const version = versionProblem((root as Record<string, unknown>).version);
  if (version !== undefined) return { ok: false, problems: [{ ...version, ...locate(body, scan.spans, ['version']) }] };
  const parsed = NotebookFileSchema.safeParse(root);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .flatMap((issue) => issueMessages(issue, root))
      .map(({ path, message }): NotebookProblem => ({
        kind: 'schema',
        field: formatFieldPath(path),
        message,
        ...locate(body, scan.spans, path),
      }))
      .sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0))
      .slice(0, MAX_PROBLEMS);
    return { ok: false, problems };
  }
  // the validated input itself, not zod's output: nested objects keep fields this version does not know
  const notebook = root as NotebookFile;
  if (notebook.metadata === undefined) notebook.metadata = {};
  if (memory !== undefined) rememberUnknownMetadata(body, scan.spans, notebook, memory);
  return { ok: true, notebook };
}

function rememberUnknownMetadata(
  text: string,
  spans: Map<string, Span>,
  notebook: NotebookFile,
  memory: RawSliceMemory,
): void {
  const visit = (path: JsonPath, value: unknown): void => {
    if (!isUnknownMetadataPath(path)) return;
    const span = spans.get(pathKey(path));
    if (span === undefined) return;
    memory.remember(value as JsonValue, text.slice(span.start, span.end), canonicalAt(value as JsonValue, path.length));
  };
  for (const [key, value] of Object.entries(notebook.metadata ?? {})) visit(['metadata', key], value);
  notebook.cells.forEach((cell, index) => {
    for (const [key, value] of Object.entries(cell.metadata ?? {})) visit(['cells', index, 'metadata', key], value);
  });
}

// One line per problem: `file:line:column: field: message`, or `line N, column M: ...` without a file label.
export function describeProblems(problems: readonly NotebookProblem[], fileLabel?: string): string {
  const lines = problems.map((p) => {
    const where =
      fileLabel === undefined
        ? p.line === undefined
          ? ''
          : `line ${p.line}${p.column === undefined ? '' : `, column ${p.column}`}: `
        : `${p.line === undefined ? fileLabel : `${fileLabel}:${p.line}${p.column === undefined ? '' : `:${p.column}`}`}: `;
    return `${where}${p.field === undefined ? '' : `${p.field}: `}${p.message}`;
  });
  return lines.join('\n');
}
