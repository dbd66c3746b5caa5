import resultCss from '../result-view/result-view.css';
import inspectorCss from './inspector.css';
import { adoptSheet, createSheet } from '../dom/styles.js';
import { createInspectorApp } from './inspector-app.js';
import { acquireWebviewApi } from './vscode-api.js';
import * as l10n from '@vscode/l10n';
import { applyL10nBundle } from '../l10n/apply-bundle.js';

// The display language's strings the host put on the root element; malformed text leaves the page in English.
function loadL10n(root: HTMLElement): void {
  const text = root.dataset.l10n;
  if (text === undefined) return;
  try {
    applyL10nBundle(JSON.parse(text) as unknown);
  } catch {
    // not JSON: English stays
  }
}

// Page entry of the run inspector WebviewPanel (loaded by the html from inspector-html.ts).
function boot(): void {
  const root = document.getElementById('inspector');
  if (root === null) return;
  loadL10n(root);
  root.classList.add('ptc-root');
  adoptSheet(document, createSheet(`${resultCss}\n${inspectorCss}`));
  const api = acquireWebviewApi();
  if (api === undefined) {
    root.textContent = l10n.t('The run inspector runs inside VS Code (acquireVsCodeApi is missing).');
    return;
  }
  const app = createInspectorApp(root, api);
  window.addEventListener('message', (event: MessageEvent<unknown>) => app.receive(event.data));
}

boot();
