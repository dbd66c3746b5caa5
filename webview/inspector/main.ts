import resultCss from '../result-view/result-view.css';
import inspectorCss from './inspector.css';
import { adoptSheet, createSheet } from '../dom/styles.js';
import { createInspectorApp } from './inspector-app.js';
import { acquireWebviewApi } from './vscode-api.js';

// Page entry of the run inspector WebviewPanel (loaded by the html from inspector-html.ts).
function boot(): void {
  const root = document.getElementById('inspector');
  if (root === null) return;
  root.classList.add('ptc-root');
  adoptSheet(document, createSheet(`${resultCss}\n${inspectorCss}`));
  const api = acquireWebviewApi();
  if (api === undefined) {
    root.textContent = 'The run inspector runs inside VS Code (acquireVsCodeApi is missing).';
    return;
  }
  const app = createInspectorApp(root, api);
  window.addEventListener('message', (event: MessageEvent<unknown>) => app.receive(event.data));
}

boot();
