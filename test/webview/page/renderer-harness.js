// Stands in for VS Code's notebook output webview: a fake RendererContext around the built renderer bundle.
import { activate } from '/dist/webview/renderer.js';

const params = new URLSearchParams(location.search);
const messaging = params.get('messaging') !== '0';
// view=full: every render is followed by a click on its Details toggle (the full view, as a person opens it)
const fullView = params.get('view') === 'full';
const listeners = new Set();
const posted = [];
let state;
const context = {
  workspace: { isTrusted: params.get('trusted') !== '0' },
  getState: () => state,
  setState: (value) => {
    state = value;
  },
  getRenderer: async () => undefined,
};
if (messaging) {
  context.postMessage = (message) => posted.push(JSON.parse(JSON.stringify(message)));
  context.onDidReceiveMessage = (listener) => {
    listeners.add(listener);
    return { dispose: () => listeners.delete(listener) };
  };
}
const api = await activate(context);
const outputs = document.getElementById('outputs');
const texts = new Map();

async function textOf(name) {
  if (!texts.has(name)) {
    const response = await fetch(`/fixtures/${name}.json`);
    if (!response.ok) throw new Error(`fixture ${name}: HTTP ${response.status}`);
    texts.set(name, await response.text());
  }
  return texts.get(name);
}

function outputItem(id, text, mime = 'application/vnd.ptc-playground.result+json') {
  return {
    id,
    mime,
    metadata: {},
    text: () => text,
    json: () => JSON.parse(text),
    data: () => new TextEncoder().encode(text),
    blob: () => new Blob([text], { type: 'application/json' }),
  };
}

function elementFor(id) {
  let element = document.getElementById(id);
  if (element === null) {
    element = document.createElement('div');
    element.id = id;
    element.className = 'output';
    outputs.append(element);
  }
  return element;
}

function openDetails(element) {
  element.shadowRoot?.querySelector('[data-toggle="details"][aria-expanded="false"]')?.click();
}

// resolves after the frame that follows the render has been produced (rAF, then a task after it)
function afterPaint() {
  return new Promise((resolve) =>
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => resolve();
      channel.port2.postMessage(null);
    }),
  );
}

window.harness = {
  posted,
  async preload(names) {
    for (const name of names) await textOf(name);
  },
  async render(name, id = name) {
    const text = await textOf(name);
    const element = elementFor(id);
    await api.renderOutputItem(outputItem(id, text), element, new AbortController().signal);
    if (fullView) openDetails(element);
    return id;
  },
  async renderText(id, text) {
    const element = elementFor(id);
    await api.renderOutputItem(outputItem(id, text), element, new AbortController().signal);
    if (fullView) openDetails(element);
    return id;
  },
  // an output item of another of the renderer's types (the problem output)
  async renderItem(id, mime, text) {
    const element = elementFor(id);
    await api.renderOutputItem(outputItem(id, text, mime), element, new AbortController().signal);
    return id;
  },
  // first paint: from handing the output item to the renderer until the next frame is out
  async measure(name, id) {
    const text = await textOf(name);
    const element = elementFor(id);
    const t0 = performance.now();
    await api.renderOutputItem(outputItem(id, text), element, new AbortController().signal);
    await afterPaint();
    return performance.now() - t0;
  },
  dispose(id) {
    api.disposeOutputItem(id);
  },
  remove(id) {
    api.disposeOutputItem(id);
    document.getElementById(id)?.remove();
  },
  clear() {
    api.disposeOutputItem(undefined);
    outputs.replaceChildren();
  },
  send(message) {
    for (const listener of listeners) listener(message);
  },
  setTheme(theme) {
    document.body.className = `vscode-${theme}`;
  },
  active: () => api.activeOutputCount(),
};
document.body.dataset.ready = 'true';
