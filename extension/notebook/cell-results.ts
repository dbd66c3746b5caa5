import type * as vscode from 'vscode';
import { parseResultPayload, type ResultPayload } from '../../webview/protocol/index.js';
import { outputMetaOf } from './output-meta.js';
import { payloadOf } from './result-output.js';

// The latest result shown on a cell (fresh or loaded from the file), validated like the renderer does.
export function latestPayload(
  cell: vscode.NotebookCell,
): { payload: ResultPayload; output: vscode.NotebookCellOutput } | undefined {
  for (let i = cell.outputs.length - 1; i >= 0; i--) {
    const output = cell.outputs[i] as vscode.NotebookCellOutput;
    if (outputMetaOf(output.metadata)?.kind !== 'result') continue;
    const parsed = parseResultPayload(payloadOf(output));
    if (parsed.ok) return { payload: parsed.payload, output };
  }
  return undefined;
}
