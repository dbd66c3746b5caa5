import * as vscode from 'vscode';
import { readConfig } from '../config/config.js';

// The default bindings module for notebooks under `uri` (the `defaultBindings` setting of its folder) and the
// workspace folder it is relative to: what notebookBindingsPath falls back to when a notebook names no module.
export function defaultBindingsFor(uri: vscode.Uri): { defaultBindings: string; workspaceFolder: string | undefined } {
  const workspaceFolder =
    vscode.workspace.getWorkspaceFolder(uri)?.uri.fsPath ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  return { defaultBindings: readConfig(uri).config.defaultBindings, workspaceFolder };
}
