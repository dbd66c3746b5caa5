// A transcript the importer cannot read: one message naming the file, the line and the field.
export interface ImportProblem {
  file: string;
  line?: number;
  column?: number;
  // `messages[3].content[1].input`, relative to the JSON record (or document) at `line`
  field?: string;
  message: string;
  // set when a front end can offer a remedy: `unknown-format` (ask which format it is)
  code?: 'unknown-format';
}

// Thrown inside the format readers and turned into data at the API boundary (importTranscripts never throws it).
export class ImportFailure extends Error {
  readonly problem: ImportProblem;
  constructor(problem: ImportProblem) {
    super(describeImportProblem(problem));
    this.name = 'ImportFailure';
    this.problem = problem;
  }
}

// `file:line:column: field: message`, the shape compilers use so editors can jump to it.
export function describeImportProblem(problem: ImportProblem): string {
  const where =
    problem.line === undefined
      ? problem.file
      : `${problem.file}:${problem.line}${problem.column === undefined ? '' : `:${problem.column}`}`;
  return `${where}: ${problem.field === undefined ? '' : `${problem.field}: `}${problem.message}`;
}

export type FieldPath = readonly (string | number)[];

// `messages[3].content[1]["odd key"]`
export function formatField(path: FieldPath): string | undefined {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out === '' ? undefined : out;
}

// Describes a JSON value for messages without echoing large or secret content.
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string')
    return value.length > 24 ? `a string of ${value.length} characters` : `the string ${JSON.stringify(value)}`;
  return `the ${typeof value} ${String(value)}`;
}
