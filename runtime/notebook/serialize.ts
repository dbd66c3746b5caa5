import type { JsonValue } from '../protocol/json-value.js';
import { jsonValueProblem } from '../json/value-problem.js';
import type { JsonPath } from '../json/json-scan.js';
import { isUnknownMetadataPath, notebookKeyOrder } from './layout.js';
import { describeProblems, formatFieldPath, type NotebookProblem } from './parse.js';
import { prettyJson } from '../json/pretty-json.js';
import type { RawSliceMemory } from './raw-memory.js';
import { boundSavedOutputs, fitResult } from './output-budget.js';
import { type NotebookCell, type NotebookFile, NotebookFileSchema, type SavedOutput } from './schema.js';

export interface SerializeOptions {
  // verbatim spellings of unknown metadata remembered at parse time
  memory?: RawSliceMemory;
  // false makes outputs transient (not written); a notebook's own `saveOutputs: false` wins over true
  includeOutputs?: boolean;
}

// Thrown when the in-memory notebook cannot be written as a valid file; the save fails instead of corrupting it.
export class NotebookWriteError extends Error {
  readonly problems: NotebookProblem[];
  constructor(problems: NotebookProblem[]) {
    super(`The notebook cannot be saved:\n${describeProblems(problems, 'notebook')}`);
    this.name = 'NotebookWriteError';
    this.problems = problems;
  }
}

function nonEmpty(value: Record<string, unknown> | undefined): boolean {
  return value !== undefined && Object.values(value).some((v) => v !== undefined);
}

// Whoever built the notebook, no cell's saved outputs exceed the per-cell output budget.
function withinBudget(outputs: readonly SavedOutput[]): SavedOutput[] {
  const fitted = outputs.map((output): SavedOutput => {
    if (output.kind !== 'result') return output;
    const fit = fitResult(output.result);
    if (fit.note === undefined) return output;
    return {
      kind: 'result',
      result: fit.result,
      note: output.note === undefined ? fit.note : `${output.note} ${fit.note}`,
    };
  });
  return boundSavedOutputs(fitted);
}

function cellForDisk(cell: NotebookCell, includeOutputs: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = { kind: cell.kind };
  if (cell.kind === 'code') out.language = cell.language;
  out.source = cell.source;
  if (nonEmpty(cell.metadata)) out.metadata = cell.metadata;
  if (cell.kind === 'code' && includeOutputs && cell.outputs !== undefined && cell.outputs.length > 0)
    out.outputs = withinBudget(cell.outputs);
  return out;
}

// Writes `.ptcnb` text: 2-space indent, stable key order, trailing newline, unknown metadata verbatim.
export function serializeNotebook(notebook: NotebookFile, options: SerializeOptions = {}): string {
  const includeOutputs = (options.includeOutputs ?? true) && notebook.metadata?.saveOutputs !== false;
  const file = {
    version: notebook.version,
    metadata: notebook.metadata ?? {},
    cells: notebook.cells.map((cell) => cellForDisk(cell, includeOutputs)),
  };
  const problem = jsonValueProblem(file);
  if (problem !== undefined) throw new NotebookWriteError([{ kind: 'schema', message: problem }]);
  const checked = NotebookFileSchema.safeParse(file);
  if (!checked.success) {
    throw new NotebookWriteError(
      checked.error.issues
        .slice(0, 20)
        .map((issue) => ({ kind: 'schema', field: formatFieldPath(issue.path), message: issue.message })),
    );
  }
  const memory = options.memory;
  const raw =
    memory === undefined
      ? undefined
      : (path: JsonPath, value: JsonValue): string | undefined =>
          isUnknownMetadataPath(path) ? memory.recall(value) : undefined;
  return `${prettyJson(file as JsonValue, { orderKeys: notebookKeyOrder, hookDepth: 5, ...(raw === undefined ? {} : { raw }) })}\n`;
}
