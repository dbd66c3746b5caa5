// One cold activation of the built extension bundle, in this fresh Node process, against a stand-in for the `vscode`
// module: time from before require() to the end of activate(), and the 'activated in N ms' the extension logs itself.
// Usage: node bench/lib/activation-host.mjs <path/to/extension.cjs> [<extension sources dir>]  → one JSON line on
// stdout.
//
// The stand-in accepts every API call the extension makes: registrations return disposables, events are subscribable,
// configuration answers its defaults, mementos are in memory, the workspace is trusted with one folder and no open
// notebooks, and the output channel records lines. Not included: VS Code's own work before activate() (reading the
// manifest, its activation events, building the ExtensionContext), its IPC to the window, and Node's start-up.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import Module from 'node:module';
import os from 'node:os';
import path from 'node:path';

const bundle = path.resolve(process.argv[2] ?? '');
const logLines = [];

// Anything VS Code would hand back: callable, constructible, iterable (empty), disposable, never a thenable.
function anything(name) {
  const cache = new Map();
  const target = function () {};
  return new Proxy(target, {
    get(_t, prop) {
      if (prop === 'then') return undefined;
      if (prop === Symbol.toPrimitive) return () => name;
      if (prop === Symbol.iterator) return function* () {};
      if (prop === 'dispose') return () => {};
      if (prop === 'length') return 0;
      if (!cache.has(prop)) cache.set(prop, anything(`${name}.${String(prop)}`));
      return cache.get(prop);
    },
    // properties the extension sets (a status item's text, a controller's handler) read back as set
    set(_t, prop, value) {
      cache.set(prop, value);
      return true;
    },
    apply: () => anything(`${name}()`),
    construct: () => anything(`new ${name}`),
  });
}

const disposable = { dispose() {} };
const event = () => disposable;
const memento = () => {
  const values = new Map();
  return {
    get: (key, fallback) => (values.has(key) ? values.get(key) : fallback),
    update: async (key, value) => void values.set(key, value),
    keys: () => [...values.keys()],
  };
};
const folder = path.join(os.tmpdir(), 'ptc-activation-bench');
const uri = (fsPath) => ({
  scheme: 'file',
  fsPath,
  path: fsPath,
  toString: () => `file://${fsPath}`,
  with: () => uri(fsPath),
});
const channel = () => {
  const record = (level) => (message) => logLines.push(`${level} ${String(message)}`);
  return {
    ...disposable,
    name: 'PTC Playground',
    trace: record('trace'),
    debug: record('debug'),
    info: record('info'),
    warn: record('warn'),
    error: record('error'),
    append() {},
    appendLine: record('line'),
    show() {},
    onDidChangeLogLevel: event,
    logLevel: 2,
  };
};

const overrides = {
  version: '1.95.0',
  workspace: {
    isTrusted: true,
    workspaceFolders: [{ uri: uri(folder), name: 'bench', index: 0 }],
    notebookDocuments: [],
    textDocuments: [],
    getConfiguration: () => ({
      get: (_key, fallback) => fallback,
      has: () => false,
      inspect: () => undefined,
      update: async () => {},
    }),
  },
  window: {
    createOutputChannel: channel,
    visibleNotebookEditors: [],
    activeNotebookEditor: undefined,
    activeTextEditor: undefined,
  },
  extensions: { getExtension: () => undefined, all: [], onDidChange: event },
  env: { language: 'en', appName: 'bench', uiKind: 1 },
};

// Every `vscode.<name>` the extension's sources use: the bundle copies the module's own keys (esbuild's __toESM)
function usedNamespaces(dir) {
  const names = new Set();
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    for (const m of fs
      .readFileSync(path.join(entry.parentPath ?? entry.path, entry.name), 'utf8')
      .matchAll(/\bvscode\.([A-Za-z_]\w*)/g))
      names.add(m[1]);
  }
  return names;
}

// `vscode` as the extension sees it: the overrides first, anything() for the rest (onDid* members are events)
function vscodeModule() {
  const wrap = (name, fixed) =>
    new Proxy(fixed, {
      get(t, prop) {
        if (prop in t) return t[prop];
        if (typeof prop === 'string' && prop.startsWith('onDid')) return event;
        return anything(`${name}.${String(prop)}`);
      },
    });
  const top = { version: overrides.version };
  for (const name of namespaces) top[name] = anything(`vscode.${name}`);
  for (const [key, value] of Object.entries(overrides))
    if (typeof value === 'object') top[key] = wrap(`vscode.${key}`, value);
  return top;
}

const namespaces = usedNamespaces(process.argv[3] ?? path.join(path.dirname(bundle), '..', 'extension'));
const originalLoad = Module._load;
Module._load = function load(request, parent, isMain) {
  return request === 'vscode' ? vscodeModule() : originalLoad.call(this, request, parent, isMain);
};

const context = {
  subscriptions: [],
  workspaceState: memento(),
  globalState: { ...memento(), setKeysForSync() {} },
  secrets: { get: async () => undefined, store: async () => {}, delete: async () => {}, onDidChange: event },
  extensionUri: uri(path.dirname(path.dirname(bundle))),
  extensionPath: path.dirname(path.dirname(bundle)),
  extension: { id: 'ptc-playground.ptc-playground', packageJSON: { version: 'bench' } },
  storageUri: undefined,
  globalStorageUri: uri(path.join(folder, 'global')),
  logUri: uri(path.join(folder, 'log')),
  extensionMode: 1,
  asAbsolutePath: (p) => path.join(path.dirname(path.dirname(bundle)), p),
};

const cpuBefore = process.cpuUsage();
const started = performance.now();
const extension = createRequire(import.meta.url)(bundle);
const required = performance.now();
extension.activate(context);
const activated = performance.now();
// CPU time of this thread and V8's helper threads: what the load of a shared machine does not inflate much
const cpu = process.cpuUsage(cpuBefore);
const self = logLines.map((line) => /activated in (\d+) ms/.exec(line)?.[1]).find((v) => v !== undefined);
const failure = logLines.find((line) => line.startsWith('error '));
process.stdout.write(
  `${JSON.stringify({ requireMs: required - started, activateMs: activated - required, totalMs: activated - started, cpuMs: (cpu.user + cpu.system) / 1000, selfReportedMs: self === undefined ? null : Number(self), failure: failure ?? null })}\n`,
);
await Promise.race([extension.deactivate?.(), new Promise((resolve) => setTimeout(resolve, 2000))]);
process.exit(0);
