import {
  boundSavedOutputs,
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

// Saved outputs over the per-cell output budget (a notebook from elsewhere) are replaced by a note, never the source.
function savedOutputs(
  outputs: readonly SavedOutput[],
  source: string,
  cellId: string | undefined,
): vscode.NotebookCellOutput[] {
  return boundSavedOutputs(outputs).map((output) =>
    output.kind === 'result'
      ? resultOutput(output.result, {
          program: source,
          cellId,
          ...(output.note === undefined ? {} : { note: output.note }),
        })
      : problemOutput(output.message, { persist: true }),
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
    const outputs = boundSavedOutputs(cell.outputs ?? []);
    data.outputs = savedOutputs(outputs, cell.source, cell.metadata?.id);
    // ✓/✗ and the duration come from the run as saved, even when its output was too big to load (a note stands in
    // for it): a cancelled run whose output was dropped still reopens without ✗
    const last = cell.outputs?.[cell.outputs.length - 1];
    // a saved cancelled run reopens like it ended: without ✓ or ✗, but with its duration
    const cancelled = last?.kind === 'result' && last.result.error?.kind === 'abort';
    const timing =
      last?.kind === 'result' ? { startTime: 0, endTime: Math.max(1, Math.round(last.result.durationMs)) } : undefined;
    if (last !== undefined) {
      data.executionSummary = {
        ...(cancelled ? {} : { success: last.kind === 'result' && last.result.error === undefined }),
        ...(timing === undefined ? {} : { timing }),
      };
    }
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
    const result =
      payload !== null && typeof payload === 'object' ? (payload as { result?: unknown }).result : undefined;
    const note = payload !== null && typeof payload === 'object' ? (payload as { note?: unknown }).note : undefined;
    // a result we cannot validate is dropped rather than blocking the save of the user's code
    if (RunResultSchema.safeParse(result).success) {
      saved.push({
        kind: 'result',
        result: result as RunResult,
        ...(typeof note === 'string' && note !== '' ? { note } : {}),
      });
    }
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
    if (cell.kind === vscode.NotebookCellKind.Markup)
      return { kind: 'markdown', source: cell.value, ...(metadata === undefined ? {} : { metadata }) };
    // a task cell's outputs are messages about the last request, not results: not saved
    if (cell.languageId === TASK_LANGUAGE)
      return { kind: 'task', source: cell.value, ...(metadata === undefined ? {} : { metadata }) };
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
