import { defaultCassetteDir, loadCassette } from '../../runtime/index.js';
import fs from 'node:fs/promises';
import path from 'node:path';
import * as vscode from 'vscode';
import {
  encodeHostToInspector,
  INSPECTOR_VIEW_TYPE,
  parseL10nBundle,
  type InspectorRun,
  parseInspectorToHost,
  type HostToInspectorMessage,
  type InspectorTab,
  type L10nBundle,
} from '../../webview/protocol/index.js';
import { createNonce, inspectorHtml } from '../../webview/inspector/inspector-html.js';
import { cassetteRun, transcriptRun } from '../../webview/shared/index.js';
import { importedMetaOf } from '../../runtime/index.js';
import { thenVsNowOf } from '../import/then-vs-now.js';
import type { Logger } from '../log/logger.js';
import { latestPayload } from '../notebook/cell-results.js';
import { cellKey, RunHistory } from './run-history.js';

export interface InspectorDeps {
  extensionUri: vscode.Uri;
  log: Logger;
  rerun: (notebookUri: string, cellId: string) => Promise<void>;
  // Run from here: the cell's run again from call `callId` (the host asks for the new outcome)
  fork: (notebookUri: string, cellId: string, callId: number | undefined) => Promise<void>;
}

// The run inspector (one panel, reused): a cell's runs, "what the model sees", and a diff of two runs.
export class InspectorPanels implements vscode.Disposable, vscode.WebviewPanelSerializer {
  readonly #deps: InspectorDeps;
  readonly #history = new RunHistory();
  // one stable object per imported cell, so its transcript run is added to the history once
  readonly #transcripts = new Map<string, object>();
  #panel: vscode.WebviewPanel | undefined;
  #shownKey: string | undefined;
  #shownNotebook: string | undefined;
  // the run and tab the last open() asked for: the page's `ready` is answered with them too, since a message posted
  // before a new page listens is lost (Run from Call… then showed the fork's run instead of the diff)
  #asked: { selectedId: string; tab?: InspectorTab } | undefined;
  readonly #disposables: vscode.Disposable[] = [];

  constructor(deps: InspectorDeps) {
    this.#deps = deps;
    this.#disposables.push(vscode.window.registerWebviewPanelSerializer(INSPECTOR_VIEW_TYPE, this));
  }

  // Records a cell's latest result in the history and shows it if the panel follows that cell. A run of an imported
  // cell is compared with what its transcript recorded ("then" vs "now").
  noteRun(cell: vscode.NotebookCell): InspectorRun | undefined {
    const latest = latestPayload(cell);
    if (latest === undefined) return undefined;
    const key = cellKey(cell.notebook.uri.toString(), latest.payload.cellId, cell.index);
    const mode = latest.payload.result.mode;
    const imported = importedMetaOf(cell.metadata);
    if (imported?.then !== undefined) this.#transcriptRun(cell, key);
    const run = this.#history.add(key, latest.output, {
      label: vscode.l10n.t(
        'cell {0} · {1}{2}',
        cell.index + 1,
        new Date().toLocaleTimeString(),
        mode === undefined ? '' : ` · ${mode}`,
      ),
      source: 'cell',
      createdAt: new Date().toISOString(),
      payload: latest.payload,
      ...(imported?.then === undefined ? {} : { thenVsNow: thenVsNowOf(imported.then, latest.payload.result) }),
    });
    if (this.#panel !== undefined && this.#shownKey === key) this.#post({ type: 'add-run', run, select: true });
    return run;
  }

  // Opens (or reveals) the panel on a cell's runs; an imported cell opens on "Then vs now", even before its first run.
  // `tab: 'diff'` opens on the diff of the cell's last two runs (a fork beside the run it forked).
  open(cell: vscode.NotebookCell, tab?: 'diff'): boolean {
    const run = this.noteRun(cell);
    const id = run?.payload.cellId ?? (typeof cell.metadata.id === 'string' ? cell.metadata.id : undefined);
    const key = cellKey(cell.notebook.uri.toString(), id, cell.index);
    const transcript = this.#transcriptRun(cell, key);
    const shown = run ?? transcript;
    if (shown === undefined) return false;
    const panel = this.#panel ?? this.#create();
    const switching = this.#shownKey !== key;
    this.#shownKey = key;
    this.#shownNotebook = cell.notebook.uri.toString();
    panel.title = vscode.l10n.t('Run Inspector: cell {0}', cell.index + 1);
    panel.reveal(undefined, false);
    const shownTab = tab ?? (transcript !== undefined && switching ? ('then' as const) : undefined);
    this.#asked = { selectedId: shown.id, ...(shownTab === undefined ? {} : { tab: shownTab }) };
    this.#post({ type: 'load', runs: this.#history.runs(key), ...this.#asked });
    return true;
  }

  // What an imported cell's program did in its transcript, kept once per cell next to the cell's runs.
  #transcriptRun(cell: vscode.NotebookCell, key: string): InspectorRun | undefined {
    const imported = importedMetaOf(cell.metadata);
    if (imported?.then === undefined) return undefined;
    let sentinel = this.#transcripts.get(key);
    if (sentinel === undefined) {
      sentinel = {};
      this.#transcripts.set(key, sentinel);
    }
    const { id: _placeholder, ...shown } = transcriptRun({
      id: 'transcript',
      label: vscode.l10n.t('cell {0} · transcript', cell.index + 1),
      language: cell.document.languageId === 'python' ? 'python' : 'typescript',
      then: imported.then,
      format: imported.format,
      compare: imported.then.compare,
      origin: vscode.l10n.t('{0} line {1}', imported.file, imported.line),
      marks: imported.unreproducible ?? [],
    });
    return this.#history.add(key, sentinel, shown);
  }

  // Restores a panel after a window reload; the page keeps its runs in its own state.
  async deserializeWebviewPanel(panel: vscode.WebviewPanel): Promise<void> {
    this.#adopt(panel);
  }

  #create(): vscode.WebviewPanel {
    const panel = vscode.window.createWebviewPanel(
      INSPECTOR_VIEW_TYPE,
      vscode.l10n.t('Run Inspector'),
      vscode.ViewColumn.Beside,
      {
        enableScripts: true,
        localResourceRoots: [this.#assetsRoot()],
      },
    );
    this.#adopt(panel);
    return panel;
  }

  #assetsRoot(): vscode.Uri {
    return vscode.Uri.joinPath(this.#deps.extensionUri, 'dist', 'webview');
  }

  #adopt(panel: vscode.WebviewPanel): void {
    this.#panel = panel;
    panel.webview.options = { enableScripts: true, localResourceRoots: [this.#assetsRoot()] };
    panel.webview.html = inspectorHtml({
      scriptUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(this.#assetsRoot(), 'inspector.js')).toString(),
      cspSource: panel.webview.cspSource,
      nonce: createNonce(),
      lang: vscode.env.language,
      text: { title: vscode.l10n.t('PTC Run Inspector'), loading: vscode.l10n.t('Loading the run inspector…') },
      ...this.#l10nBundle(),
    });
    panel.webview.onDidReceiveMessage((data: unknown) => void this.#receive(data));
    panel.onDidDispose(() => {
      if (this.#panel === panel) this.#panel = undefined;
    });
  }

  // The display language's strings for the page (none in English; an oversized bundle leaves the page in English).
  #l10nBundle(): { l10n?: L10nBundle } {
    const bundle = vscode.l10n.bundle;
    if (bundle === undefined) return {};
    const checked = parseL10nBundle(bundle);
    if (checked === undefined)
      this.#deps.log.warn('the l10n bundle is too large or not a string map; the inspector stays in English');
    return checked === undefined ? {} : { l10n: checked };
  }

  async #receive(data: unknown): Promise<void> {
    const parsed = parseInspectorToHost(data);
    if (!parsed.ok) {
      this.#deps.log.warn(`inspector sent an invalid message: ${parsed.error}`);
      return;
    }
    const message = parsed.message;
    this.#deps.log.debug(`inspector message: ${message.type}`);
    switch (message.type) {
      case 'ready': {
        const runs = this.#shownKey === undefined ? [] : this.#history.runs(this.#shownKey);
        // after a reload the page already shows its restored runs; an empty load would wipe them
        const asked = runs.some((r) => r.id === this.#asked?.selectedId) ? this.#asked : undefined;
        if (runs.length > 0 || message.restoredRunIds.length === 0)
          this.#post({
            type: 'load',
            runs,
            ...(asked ?? (runs.length > 0 ? { selectedId: (runs[runs.length - 1] as InspectorRun).id } : {})),
          });
        return;
      }
      case 'rerun':
        if (this.#shownNotebook === undefined) {
          this.#post({ type: 'error', message: vscode.l10n.t('The notebook of this run is not open any more.') });
          return;
        }
        await this.#deps.rerun(this.#shownNotebook, message.cellId);
        return;
      case 'fork':
        if (this.#shownNotebook === undefined) {
          this.#post({ type: 'error', message: vscode.l10n.t('The notebook of this run is not open any more.') });
          return;
        }
        await this.#deps.fork(this.#shownNotebook, message.cellId, message.callId);
        return;
      case 'open-cassette':
        await this.#pickCassette();
        return;
    }
  }

  // Shows an open dialog (starting in the shown notebook's cassette folder) and adds the cassette as a run.
  async #pickCassette(): Promise<void> {
    const notebook = vscode.workspace.notebookDocuments.find((nb) => nb.uri.toString() === this.#shownNotebook);
    const folder =
      notebook?.uri.scheme === 'file'
        ? vscode.Uri.file(defaultCassetteDir(path.dirname(notebook.uri.fsPath)))
        : undefined;
    const picked = await vscode.window.showOpenDialog({
      title: vscode.l10n.t('Open a cassette in the Run Inspector'),
      canSelectMany: false,
      filters: { [vscode.l10n.t('Cassettes')]: ['json'] },
      ...(folder === undefined ? {} : { defaultUri: folder }),
    });
    const file = picked?.[0];
    if (file !== undefined) await this.openCassette(file.fsPath, notebook);
  }

  // Adds a cassette file to the panel as a run, next to the shown cell's runs so the two can be diffed.
  async openCassette(file: string, notebook: vscode.NotebookDocument | undefined): Promise<boolean> {
    const loaded = await loadCassette(file);
    if (!loaded.ok) {
      this.#deps.log.warn(`inspector: cassette ${file}: ${loaded.message}`);
      this.#post({ type: 'error', message: vscode.l10n.t('Cannot open the cassette: {0}', loaded.message) });
      return false;
    }
    const name = path.basename(file, '.json');
    const cell = notebook
      ?.getCells()
      .find((c) => c.kind === vscode.NotebookCellKind.Code && (c.metadata.cassette ?? c.metadata.id) === name);
    const language = cell?.document.languageId === 'python' ? 'python' : 'typescript';
    const modifiedAt = await fs.stat(file).then(
      (s) => s.mtime.toISOString(),
      () => undefined,
    );
    const key = this.#shownKey ?? `cassette:${file}`;
    // the history assigns ids; the placeholder is dropped
    const { id: _placeholder, ...shown } = cassetteRun({
      id: 'cassette',
      label: vscode.l10n.t('cassette {0} · {1} call(s)', name, loaded.cassette.calls.length),
      calls: loaded.cassette.calls,
      language,
      createdAt: modifiedAt,
    });
    const run = this.#history.add(key, {}, shown);
    if (this.#panel === undefined) this.#create();
    this.#shownKey = key;
    this.#post({ type: 'add-run', run, select: true });
    return true;
  }

  // as JSON text: VS Code's own message serialization recurses and would drop a run with a deep value
  #post(message: HostToInspectorMessage): void {
    void this.#panel?.webview
      .postMessage(encodeHostToInspector(message))
      .then(undefined, (error: unknown) => this.#deps.log.warn('could not message the inspector', error));
  }

  dispose(): void {
    this.#panel?.dispose();
    for (const d of this.#disposables.splice(0)) d.dispose();
  }
}
