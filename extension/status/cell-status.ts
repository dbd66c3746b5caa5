import * as vscode from 'vscode';
import { COMMANDS } from '../constants.js';
import { type CallProgressSnapshot, describeProgress } from '../execution/call-progress.js';
import { latestResultMeta } from '../notebook/output-meta.js';

// Per-cell status: a mode override, and whether the last run replayed a cassette (and diverged) or recorded one.
export class CellStatusProvider implements vscode.NotebookCellStatusBarItemProvider {
  readonly #onDidChange = new vscode.EventEmitter<void>();
  readonly onDidChangeCellStatusBarItems = this.#onDidChange.event;
  // running cells' live binding-call counts
  readonly #progress = new Map<vscode.NotebookCell, CallProgressSnapshot>();

  // Live progress of a running cell's binding calls; undefined clears it when the run ends.
  setProgress(cell: vscode.NotebookCell, snapshot: CallProgressSnapshot | undefined): void {
    if (snapshot === undefined) {
      if (!this.#progress.delete(cell)) return;
    } else this.#progress.set(cell, snapshot);
    this.#onDidChange.fire();
  }

  // The status text of a running cell's progress (tests read it).
  progressText(cell: vscode.NotebookCell): string | undefined {
    const snapshot = this.#progress.get(cell);
    return snapshot === undefined ? undefined : describeProgress(snapshot, vscode.l10n.t);
  }

  provideCellStatusBarItems(cell: vscode.NotebookCell): vscode.NotebookCellStatusBarItem[] {
    if (cell.kind !== vscode.NotebookCellKind.Code) return [];
    const items: vscode.NotebookCellStatusBarItem[] = [];
    const progress = this.progressText(cell);
    if (progress !== undefined) {
      const item = new vscode.NotebookCellStatusBarItem(
        `$(sync~spin) ${progress}`,
        vscode.NotebookCellStatusBarAlignment.Left,
      );
      item.tooltip = vscode.l10n.t('Binding calls of this run so far (updated while it runs)');
      items.push(item);
      return items;
    }
    const mode: unknown = cell.metadata.mode;
    if (typeof mode === 'string') {
      const item = new vscode.NotebookCellStatusBarItem(
        `$(symbol-property) ${vscode.l10n.t('cell mode: {0}', mode)}`,
        vscode.NotebookCellStatusBarAlignment.Right,
      );
      item.tooltip = vscode.l10n.t("This cell overrides the notebook's binding mode. Click to change.");
      item.command = {
        title: vscode.l10n.t('Set Cell Binding Mode'),
        command: COMMANDS.setCellMode,
        arguments: [cell],
      };
      items.push(item);
    }
    const meta = latestResultMeta(cell.outputs);
    if (meta?.replay !== undefined) {
      const diverged = meta.replay.diverged > 0;
      const text = diverged
        ? `$(warning) ${vscode.l10n.t('replay diverged: {0} call(s)', meta.replay.diverged)}`
        : `$(history) ${vscode.l10n.t('replayed {0} call(s)', meta.replay.matched)}`;
      const item = new vscode.NotebookCellStatusBarItem(text, vscode.NotebookCellStatusBarAlignment.Left);
      item.tooltip = vscode.l10n.t(
        '{0} matched, {1} diverged, {2} recorded call(s) unused',
        meta.replay.matched,
        meta.replay.diverged,
        meta.replay.unused,
      );
      item.command = { title: vscode.l10n.t('Open Run Inspector'), command: COMMANDS.openInspector, arguments: [cell] };
      items.push(item);
    } else if (meta?.kind === 'result' && meta.cassette !== undefined) {
      const item = new vscode.NotebookCellStatusBarItem(
        `$(record) ${vscode.l10n.t('recorded {0} call(s)', meta.callCount)}`,
        vscode.NotebookCellStatusBarAlignment.Left,
      );
      item.tooltip = meta.cassette;
      items.push(item);
    }
    return items;
  }

  refresh(): void {
    this.#onDidChange.fire();
  }

  dispose(): void {
    this.#onDidChange.dispose();
  }
}
