import { CellModeSchema, NotebookModeSchema, type NotebookMode } from '../../runtime/index.js';
import * as vscode from 'vscode';
import { readConfig } from '../config/config.js';
import type { Logger } from '../log/logger.js';
import { targetCell, targetNotebook } from './target-cell.js';

// `ptcPlayground.switchMode [mode]`: sets the notebook's mock/live mode (asks when no mode is given).
export async function switchMode(log: Logger, arg?: unknown, modeArg?: unknown): Promise<NotebookMode | undefined> {
  const notebook = targetNotebook(typeof arg === 'string' ? undefined : arg);
  if (notebook === undefined) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Open a PTC notebook to switch its binding mode.'));
    return undefined;
  }
  const own: unknown = notebook.metadata.mode;
  const current: NotebookMode = own === 'live' || own === 'mock' ? own : readConfig(notebook.uri).config.defaultMode;
  let mode = NotebookModeSchema.safeParse(typeof arg === 'string' ? arg : modeArg).data;
  if (mode === undefined) {
    const picked = await vscode.window.showQuickPick(
      [
        {
          label: '$(beaker) mock',
          mode: 'mock' as const,
          description: current === 'mock' ? vscode.l10n.t('current') : undefined,
          detail: vscode.l10n.t('Mock handlers: fast, offline, deterministic'),
        },
        {
          label: '$(plug) live',
          mode: 'live' as const,
          description: current === 'live' ? vscode.l10n.t('current') : undefined,
          detail: vscode.l10n.t('Live handlers: the real tools (and MCP servers)'),
        },
      ],
      { title: vscode.l10n.t('Binding mode for this notebook') },
    );
    mode = picked?.mode;
  }
  if (mode === undefined || (mode === current && own === mode)) return mode;
  const edit = new vscode.WorkspaceEdit();
  edit.set(notebook.uri, [vscode.NotebookEdit.updateNotebookMetadata({ ...notebook.metadata, mode })]);
  const applied = await vscode.workspace.applyEdit(edit);
  log.info(
    `${vscode.workspace.asRelativePath(notebook.uri)}: binding mode ${applied ? `set to ${mode}` : 'could not be changed'}`,
  );
  return applied ? mode : undefined;
}

const cellModeChoices = () =>
  [
    { value: undefined, label: vscode.l10n.t("Use the notebook's mode") },
    { value: 'mock', label: 'mock' },
    { value: 'live', label: 'live' },
    { value: 'record', label: vscode.l10n.t('record (live handlers, write the cassette)') },
    { value: 'replay', label: vscode.l10n.t('replay (answer from the cassette)') },
  ] as const;

// `ptcPlayground.setCellMode [cell] [mode|"inherit"]`: a per-cell override stored in cell metadata.
export async function setCellMode(log: Logger, cellArg?: unknown, modeArg?: unknown): Promise<void> {
  const cell = targetCell(cellArg);
  if (cell === undefined || cell.kind !== vscode.NotebookCellKind.Code) return;
  let mode: string | undefined;
  if (modeArg === 'inherit') mode = undefined;
  else if (CellModeSchema.safeParse(modeArg).success) mode = modeArg as string;
  else {
    const picked = await vscode.window.showQuickPick(
      cellModeChoices().map((c) => ({ label: c.label, value: c.value })),
      { title: vscode.l10n.t('Binding mode for cell {0}', cell.index + 1) },
    );
    if (picked === undefined) return;
    mode = picked.value;
  }
  const { mode: _previous, ...rest } = cell.metadata;
  const edit = new vscode.WorkspaceEdit();
  edit.set(cell.notebook.uri, [
    vscode.NotebookEdit.updateCellMetadata(cell.index, mode === undefined ? rest : { ...rest, mode }),
  ]);
  await vscode.workspace.applyEdit(edit);
  log.info(`cell ${cell.index + 1}: mode ${mode ?? 'inherited from the notebook'}`);
}
