import fs from 'node:fs';
import * as vscode from 'vscode';
import {
  defaultCassetteDir,
  learnOutputs,
  readCassettes,
  withLearnedOutputs,
  type SdkSource,
} from '../../runtime/index.js';
import type { Logger } from '../log/logger.js';
import { notebookPlace } from '../notebook/locations.js';

// What the model sees, with output types learned from the notebook's cassettes for tools that declare none
// (as `ptc sdk --learn-from <notebook folder>/.ptc/cassettes` prints them).
export async function withNotebookLearning(
  notebook: vscode.NotebookDocument,
  source: SdkSource,
  log: Logger,
): Promise<SdkSource> {
  const place = notebookPlace({ scheme: notebook.uri.scheme, fsPath: notebook.uri.fsPath, workspaceFolder: undefined });
  if (place === undefined) return source;
  const dir = defaultCassetteDir(place.dir);
  if (!fs.existsSync(dir)) return source;
  const gathered = await readCassettes([dir]);
  if (!gathered.ok) {
    // one unreadable cassette must not hide the SDK: the declared types are shown alone
    log.warn(`output types not learned from ${dir}: ${gathered.message}`);
    return source;
  }
  return withLearnedOutputs(source, learnOutputs(gathered.cassettes));
}
