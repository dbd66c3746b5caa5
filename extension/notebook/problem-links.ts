import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { FileLocation, ProblemLink } from '../../webview/protocol/index.js';

// An absolute path (POSIX or Windows) or a bare file name, each optionally followed by `:line` or `:line:col`.
const LOCATION = /((?:\/|[A-Za-z]:[\\/])[^\s:'"`()<>|]+|[\w.-]+\.[A-Za-z]{1,4})(?::(\d+)(?::(\d+))?)?/g;

// The files a problem message names, in order: absolute paths as they are, bare `name:line:col` (as esbuild reports a
// syntax error) resolved next to the first absolute path; only files that exist are linked.
export function locationsIn(
  message: string,
  exists: (file: string) => boolean = fs.existsSync,
): { text: string; location: FileLocation; index: number }[] {
  const found: { text: string; location: FileLocation; index: number }[] = [];
  let base: string | undefined;
  for (const match of message.matchAll(LOCATION)) {
    const [text, name = '', line, column] = match;
    const absolute = path.isAbsolute(name) || /^[A-Za-z]:[\\/]/.test(name);
    if (!absolute && line === undefined) continue;
    const file = absolute ? name : base === undefined ? undefined : path.join(base, name);
    if (absolute) base ??= path.dirname(name);
    if (file === undefined || !exists(file)) continue;
    found.push({
      text,
      index: match.index,
      location: {
        path: file,
        ...(line === undefined ? {} : { line: Number(line) }),
        ...(column === undefined ? {} : { column: Number(column) }),
      },
    });
  }
  return found;
}

// The spans of a problem message that name an existing file, for the renderer to draw as links that open the file at
// that line (through the extension host, so they work in a remote window too).
export function problemLinks(message: string, exists?: (file: string) => boolean): ProblemLink[] {
  const positive = (n: number | undefined): n is number => n !== undefined && Number.isSafeInteger(n) && n > 0;
  return locationsIn(message, exists).map(({ text, location, index }) => ({
    start: index,
    end: index + text.length,
    location: {
      path: location.path,
      ...(positive(location.line) ? { line: location.line } : {}),
      ...(positive(location.line) && positive(location.column) ? { column: location.column } : {}),
    },
  }));
}

// `ptcPlayground.openFileAt { path, line?, column? }`: opens a file a problem names, with the cursor on its line.
export async function openFileAt(arg: unknown): Promise<boolean> {
  if (arg === null || typeof arg !== 'object' || typeof (arg as { path?: unknown }).path !== 'string') return false;
  const { path: file, line, column } = arg as { path: string; line?: unknown; column?: unknown };
  const at = new vscode.Position(
    typeof line === 'number' && Number.isInteger(line) && line > 0 ? line - 1 : 0,
    typeof column === 'number' && Number.isInteger(column) && column > 0 ? column - 1 : 0,
  );
  const editor = await vscode.window.showTextDocument(vscode.Uri.file(file), {
    selection: new vscode.Range(at, at),
    preview: false,
  });
  editor.revealRange(new vscode.Range(at, at), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  return true;
}
