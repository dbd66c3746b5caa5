import * as vscode from 'vscode';
import { keysWhere } from '../config/settings.js';
import { CONFIG_SECTION, NOTEBOOK_TYPE } from '../constants.js';
import type { Logger } from '../log/logger.js';
import { PtcNotebookSerializer } from './serializer.js';

// The serializer for `.ptcnb`, registered again when `notebook.saveOutputs` changes (outputs become transient or not).
export class SerializerRegistration implements vscode.Disposable {
  readonly #serializer: PtcNotebookSerializer;
  readonly #saveOutputs: () => boolean;
  readonly #log: Logger;
  #registration: vscode.Disposable;
  readonly #watch: vscode.Disposable;

  constructor(log: Logger, saveOutputs: () => boolean) {
    this.#log = log;
    this.#saveOutputs = saveOutputs;
    this.#serializer = new PtcNotebookSerializer({ log, saveOutputs });
    this.#registration = this.#register();
    this.#watch = vscode.workspace.onDidChangeConfiguration((event) => {
      if (!keysWhere('reregistersSerializer').some((key) => event.affectsConfiguration(`${CONFIG_SECTION}.${key}`)))
        return;
      this.#registration.dispose();
      this.#registration = this.#register();
    });
  }

  #register(): vscode.Disposable {
    const save = this.#saveOutputs();
    this.#log.debug(`notebook serializer registered (outputs ${save ? 'saved' : 'transient'})`);
    return vscode.workspace.registerNotebookSerializer(NOTEBOOK_TYPE, this.#serializer, {
      // transient outputs neither dirty the notebook nor reach the file
      transientOutputs: !save,
      // VS Code's own UI state, never written to the file
      transientCellMetadata: { inputCollapsed: true, outputCollapsed: true },
    });
  }

  dispose(): void {
    this.#watch.dispose();
    this.#registration.dispose();
  }
}
