import {
  NOTEBOOK_FORMAT_VERSION,
  RunResultSchema,
  type CellMetadata,
  type CodeCell,
  type NotebookCell,
  type NotebookFile,
  type RunResult,
  type SavedOutput,
} from '../../runtime/index.js';
import * as vscode from 'vscode';
import { TASK_LANGUAGE } from '../constants.js';
import { outputMetaOf } from './output-meta.js';
import { payloadOf, problemOutput, resultOutput } from './result-output.js';

function savedOutputs(outputs: readonly SavedOutput[] | undefined, source: string, cellId: string | undefined): vscode.NotebookCellOutput[] {
  return (outputs ?? []).map((output) =>
    output.kind === 'result' ? resultOutput(output.result, { program: source, cellId }) : problemOutput(output.message, { persist: true }),
  );
}

// File model → VS Code model; saved results come back as rich outputs with the last run's ✓/✗.
export function toNotebookData(file: NotebookFile): vscode.NotebookData {
  const cells = file.cells.map((cell) => {
    if (cell.kind === 'markdown') {
      const data = new vscode.NotebookCellData(vscode.NotebookCellKind.Markup, cell.source, 'markdown');
      if (cell.metadata !== undefined) data.metadata = { ...cell.metadata };
      return data;
    }
    if (cell.kind === 'task') {
      // a task runs (asks the model), so it is a code cell in the editor, in a language of its own
      const data = new vscode.NotebookCellData(vscode.NotebookCellKind.Code, cell.source, TASK_LANGUAGE);
      if (cell.metadata !== undefined) data.metadata = { ...cell.metadata };
      return data;
    }
    const data = new vscode.NotebookCellData(vscode.NotebookCellKind.Code, cell.source, cell.language);
    if (cell.metadata !== undefined) data.metadata = { ...cell.metadata };
    data.outputs = savedOutputs(cell.outputs, cell.source, cell.metadata?.id);
    const last = cell.outputs?.[cell.outputs.length - 1];
    // a saved cancelled run reopens like it ended: without ✓ or ✗
    const cancelled = last?.kind === 'result' && last.result.error?.kind === 'abort';
    if (last !== undefined && !cancelled) data.executionSummary = { success: last.kind === 'result' && last.result.error === undefined };
    return data;
  });
  const data = new vscode.NotebookData(cells);
  data.metadata = { ...(file.metadata ?? {}) };
  return data;
}

// The outputs worth saving: the last result and "could not run" messages; live streams and foreign outputs are not.
function outputsToSave(outputs: readonly vscode.NotebookCellOutput[] | undefined): SavedOutput[] {
  const saved: SavedOutput[] = [];
  for (const output of outputs ?? []) {
    const meta = outputMetaOf(output.metadata);
    if (meta?.kind === 'problem' && meta.persist) saved.push({ kind: 'error', message: meta.message });
    if (meta?.kind !== 'result') continue;
    const payload = payloadOf(output);
    const result = payload !== null && typeof payload === 'object' ? (payload as { result?: unknown }).result : undefined;
    // a result we cannot validate is dropped rather than blocking the save of the user's code
    if (RunResultSchema.safeParse(result).success) saved.push({ kind: 'result', result: result as RunResult });
  }
  return saved;
}

function metadataOf(value: { [key: string]: unknown } | undefined): CellMetadata | undefined {
  return value === undefined || Object.keys(value).length === 0 ? undefined : (value as CellMetadata);
}

// VS Code model → file model; the serializer validates it before anything is written.
export function fromNotebookData(data: vscode.NotebookData): NotebookFile {
  const cells = data.cells.map((cell): NotebookCell => {
    const metadata = metadataOf(cell.metadata);
    if (cell.kind === vscode.NotebookCellKind.Markup) return { kind: 'markdown', source: cell.value, ...(metadata === undefined ? {} : { metadata }) };
    // a task cell's outputs are messages about the last request, not results: not saved
    if (cell.languageId === TASK_LANGUAGE) return { kind: 'task', source: cell.value, ...(metadata === undefined ? {} : { metadata }) };
    const outputs = outputsToSave(cell.outputs);
    return {
      kind: 'code',
      // any other language is refused with a clear message by serializeNotebook's validation
      language: cell.languageId as CodeCell['language'],
      source: cell.value,
      ...(metadata === undefined ? {} : { metadata }),
      ...(outputs.length === 0 ? {} : { outputs }),
    };
  });
  return { version: NOTEBOOK_FORMAT_VERSION, metadata: { ...(data.metadata ?? {}) }, cells };
}
