import path from 'node:path';
import * as vscode from 'vscode';
import type { Logger } from '../log/logger.js';
import { newCellId } from '../notebook/cell-ids.js';
import { STARTER_BINDINGS, starterNotebook } from '../notebook/starter.js';

// Whether a file or folder exists (any stat failure counts as no).
export async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

// The first `<stem><n>.<ext>` in a folder that does not exist yet (never overwrites a user's file).
async function freeName(dir: vscode.Uri, stem: string, ext: string): Promise<vscode.Uri> {
  for (let n = 1; ; n++) {
    const candidate = vscode.Uri.joinPath(dir, `${stem}${n === 1 ? '' : `-${n}`}${ext}`);
    if (!(await exists(candidate))) return candidate;
  }
}

async function askForTarget(): Promise<vscode.Uri | undefined> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const defaultUri = folder === undefined ? undefined : await freeName(folder, 'playground', '.ptcnb');
  return vscode.window.showSaveDialog({
    title: vscode.l10n.t('New PTC Notebook'),
    filters: { [vscode.l10n.t('PTC Notebook')]: ['ptcnb'] },
    ...(defaultUri === undefined ? {} : { defaultUri }),
  });
}

// `ptcPlayground.newNotebook [uri]`: writes a starter notebook and a sample bindings module next to it, then opens it.
export async function newNotebook(log: Logger, target?: unknown): Promise<vscode.Uri | undefined> {
  const given = target instanceof vscode.Uri ? target : undefined;
  if (given !== undefined && (await exists(given))) {
    void vscode.window.showWarningMessage(
      vscode.l10n.t('{0} already exists; choose a new file name.', vscode.workspace.asRelativePath(given)),
    );
    return undefined;
  }
  let uri = given ?? (await askForTarget());
  if (uri === undefined) return undefined;
  if (!uri.path.endsWith('.ptcnb')) uri = uri.with({ path: `${uri.path}.ptcnb` });
  const dir = vscode.Uri.joinPath(uri, '..');
  const stem = path.posix.basename(uri.path, '.ptcnb');
  const bindings = await freeName(dir, `${stem}.bindings`, '.ts');
  const bindingsName = path.posix.basename(bindings.path);
  const first = newCellId(new Set());
  const ids = { typescript: first, python: newCellId(new Set([first])) };
  const encoder = new TextEncoder();
  await vscode.workspace.fs.writeFile(bindings, encoder.encode(STARTER_BINDINGS));
  await vscode.workspace.fs.writeFile(uri, encoder.encode(starterNotebook(bindingsName, ids)));
  log.info(`new notebook ${uri.fsPath} with bindings ${bindingsName}`);
  const document = await vscode.workspace.openNotebookDocument(uri);
  await vscode.window.showNotebookDocument(document);
  return uri;
}
