import * as vscode from 'vscode';
import { FORMAT_TITLES, TRANSCRIPT_FORMATS, type TranscriptFormat } from '../../runtime/index.js';
import { defaultNotebookPath, type ImportFlowOutcome, runImport } from '../import/import-flow.js';
import type { Logger } from '../log/logger.js';
import type { CommandOutcome } from './cell-commands.js';

const TRANSCRIPT_FILTERS = { Transcripts: ['json', 'jsonl', 'ndjson', 'har'] };

// Arguments for scripted use (tasks, tests): no dialogs, no questions.
interface ImportArgs {
  files: vscode.Uri[];
  out: vscode.Uri;
  format?: TranscriptFormat;
  force?: boolean;
}

// `ptcPlayground.importTranscript [uri | uri[] | { files, out, format?, force? }]`: transcript(s) → a notebook next to
// them, one replaying cell per program; opens it. From the explorer the clicked files are the transcripts; otherwise
// an open dialog asks.
export async function importTranscript(
  log: Logger,
  arg?: unknown,
  selection?: unknown,
): Promise<CommandOutcome & { notebook?: vscode.Uri }> {
  const scripted = importArgsOf(arg);
  if (scripted !== undefined) return importScripted(log, scripted);
  const files = transcriptsOf(arg, selection) ?? (await pickTranscripts());
  if (files === undefined || files.length === 0) return { ok: false, message: vscode.l10n.t('No transcript chosen.') };
  if (files.some((f) => f.scheme !== 'file'))
    return { ok: false, message: vscode.l10n.t('Transcripts are imported from files on this machine.') };
  const first = files[0] as vscode.Uri;
  const target = await vscode.window.showSaveDialog({
    title: vscode.l10n.t('Save the imported notebook'),
    defaultUri: vscode.Uri.file(defaultNotebookPath(first.fsPath)),
    filters: { [vscode.l10n.t('PTC Notebook')]: ['ptcnb'] },
  });
  if (target === undefined) return { ok: false, message: vscode.l10n.t('Import cancelled.') };
  const out = target.fsPath.endsWith('.ptcnb') ? target.fsPath : `${target.fsPath}.ptcnb`;
  let format: TranscriptFormat | undefined;
  let force = false;
  for (;;) {
    const outcome: ImportFlowOutcome = await runImport({
      files: files.map((f) => f.fsPath),
      out,
      ...(format === undefined ? {} : { format }),
      force,
    });
    log.info(`import ${files.map((f) => f.fsPath).join(', ')} → ${out}: ${outcome.kind}`);
    switch (outcome.kind) {
      case 'imported': {
        for (const warning of outcome.warnings) log.warn(`import: ${warning}`);
        const uri = vscode.Uri.file(outcome.notebookPath);
        await vscode.window.showNotebookDocument(await vscode.workspace.openNotebookDocument(uri));
        void vscode.window.showInformationMessage(outcome.summary);
        return { ok: true, notebook: uri };
      }
      case 'exists': {
        const replace = vscode.l10n.t('Replace');
        const shown = outcome.existing
          .map((f) => vscode.workspace.asRelativePath(f))
          .slice(0, 3)
          .join(', ');
        const answer = await vscode.window.showWarningMessage(
          vscode.l10n.t('{0} already exist(s). Replace the notebook, its cassettes and its bindings stub?', shown),
          { modal: true },
          replace,
        );
        if (answer !== replace) return { ok: false, message: vscode.l10n.t('Import cancelled: nothing was written.') };
        force = true;
        continue;
      }
      case 'unknown-format': {
        const picked = await vscode.window.showQuickPick(
          TRANSCRIPT_FORMATS.map((f) => ({ label: FORMAT_TITLES[f], format: f })),
          { title: vscode.l10n.t('Which format is this transcript in?'), placeHolder: outcome.message },
        );
        if (picked === undefined) return { ok: false, message: outcome.message };
        format = picked.format;
        continue;
      }
      case 'bad-transcript': {
        const open = vscode.l10n.t('Open Transcript');
        void vscode.window
          .showErrorMessage(vscode.l10n.t('Cannot import: {0} (nothing was written)', outcome.message), open)
          .then(async (answer) => {
            if (answer !== open) return;
            const file = files.find((f) => f.fsPath === outcome.problem.file) ?? first;
            const line = Math.max(0, (outcome.problem.line ?? 1) - 1);
            const column = Math.max(0, (outcome.problem.column ?? 1) - 1);
            await vscode.window.showTextDocument(file, { selection: new vscode.Range(line, column, line, column) });
          });
        return { ok: false, message: outcome.message };
      }
      case 'write-failed':
        void vscode.window.showErrorMessage(outcome.message);
        return { ok: false, message: outcome.message };
    }
  }
}

async function importScripted(log: Logger, args: ImportArgs): Promise<CommandOutcome & { notebook?: vscode.Uri }> {
  const files = args.files.map((f) => f.fsPath);
  const outcome = await runImport({
    files,
    out: args.out.fsPath,
    ...(args.format === undefined ? {} : { format: args.format }),
    force: args.force === true,
  });
  log.info(`import ${files.join(', ')} → ${args.out.fsPath}: ${outcome.kind}`);
  if (outcome.kind !== 'imported') {
    const message =
      outcome.kind === 'exists'
        ? vscode.l10n.t('{0} already exist(s); nothing was written.', outcome.existing.join(', '))
        : outcome.message;
    return { ok: false, message };
  }
  for (const warning of outcome.warnings) log.warn(`import: ${warning}`);
  const uri = vscode.Uri.file(outcome.notebookPath);
  await vscode.window.showNotebookDocument(await vscode.workspace.openNotebookDocument(uri));
  return { ok: true, message: outcome.summary, notebook: uri };
}

function importArgsOf(arg: unknown): ImportArgs | undefined {
  if (arg === null || typeof arg !== 'object' || arg instanceof vscode.Uri || Array.isArray(arg)) return undefined;
  const { files, out, format, force } = arg as Record<string, unknown>;
  if (!Array.isArray(files) || !files.every((f) => f instanceof vscode.Uri) || !(out instanceof vscode.Uri))
    return undefined;
  const known =
    typeof format === 'string' && (TRANSCRIPT_FORMATS as readonly string[]).includes(format)
      ? (format as TranscriptFormat)
      : undefined;
  return {
    files: files as vscode.Uri[],
    out,
    ...(known === undefined ? {} : { format: known }),
    force: force === true,
  };
}

// The explorer passes the clicked file and the whole selection.
function transcriptsOf(arg: unknown, selection: unknown): vscode.Uri[] | undefined {
  if (Array.isArray(selection) && selection.length > 0 && selection.every((u) => u instanceof vscode.Uri))
    return selection as vscode.Uri[];
  if (arg instanceof vscode.Uri) return [arg];
  if (Array.isArray(arg) && arg.length > 0 && arg.every((u) => u instanceof vscode.Uri)) return arg as vscode.Uri[];
  return undefined;
}

async function pickTranscripts(): Promise<vscode.Uri[] | undefined> {
  return vscode.window.showOpenDialog({
    title: vscode.l10n.t('Import agent transcripts as a notebook'),
    canSelectMany: true,
    filters: { [vscode.l10n.t('Transcripts')]: TRANSCRIPT_FILTERS.Transcripts },
    ...(vscode.workspace.workspaceFolders?.[0] === undefined
      ? {}
      : { defaultUri: vscode.workspace.workspaceFolders[0].uri }),
  });
}
