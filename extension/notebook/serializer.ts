import { RawSliceMemory, describeProblems, parseNotebook, serializeNotebook } from '../../runtime/index.js';
import * as vscode from 'vscode';
import type { Logger } from '../log/logger.js';
import { fromNotebookData, toNotebookData } from './notebook-data.js';

// Thrown from deserializeNotebook: VS Code shows the message in place of the notebook, next to its own button for
// opening the file in the text editor, and never creates a notebook model for the file, so no later save can
// overwrite it with an empty or partial notebook. The message names no button: the buttons are VS Code's.
export class UnreadableNotebookError extends Error {
  override readonly name = 'UnreadableNotebookError';
}

export interface SerializerOptions {
  log: Logger;
  // read at save time: false makes outputs transient
  saveOutputs: () => boolean;
}

const decoder = new TextDecoder('utf-8', { fatal: true });
const encoder = new TextEncoder();

// `.ptcnb` ⇄ VS Code notebook; all format rules live in runtime/notebook.
export class PtcNotebookSerializer implements vscode.NotebookSerializer {
  readonly #memory = new RawSliceMemory();
  readonly #options: SerializerOptions;

  constructor(options: SerializerOptions) {
    this.#options = options;
  }

  deserializeNotebook(content: Uint8Array): vscode.NotebookData {
    let text: string;
    try {
      text = decoder.decode(content);
    } catch {
      throw this.#unreadable('the file is not valid UTF-8 text');
    }
    const parsed = parseNotebook(text, this.#memory);
    if (!parsed.ok) throw this.#unreadable(describeProblems(parsed.problems));
    return toNotebookData(parsed.notebook);
  }

  serializeNotebook(data: vscode.NotebookData): Uint8Array {
    const text = serializeNotebook(fromNotebookData(data), {
      memory: this.#memory,
      includeOutputs: this.#options.saveOutputs(),
    });
    return encoder.encode(text);
  }

  #unreadable(detail: string): UnreadableNotebookError {
    this.#options.log.warn(`refused to open an unreadable notebook:\n${detail}`);
    return new UnreadableNotebookError(
      vscode.l10n.t(
        'This file is not a readable PTC notebook, so it was not opened as a notebook and was left unchanged. Open it in a text editor to fix it.\n{0}',
        detail,
      ),
    );
  }
}
