// Pure decisions of the TS server plugin: which programs hold notebook cells, and what those programs see.

// The package name package.json's contributes.typescriptServerPlugins gives (scripts/build-ts-plugin.mjs builds it).
export const TS_PLUGIN_NAME = 'ptc-notebook-ts-plugin';

// VS Code's TypeScript extension names an in-memory document `^/<scheme>/<authority>/<path>` in the TS server.
const CELL_PREFIX = '^/vscode-notebook-cell/';

// What a program sees besides ES2023: Node's own globals (console, timers, process, fetch…), never the DOM's.
export const PROGRAM_LIB = ['lib.es2023.d.ts'];

export interface PluginConfig {
  // absolute paths of the declaration files (the bindings SDK) every notebook cell is checked against
  declarationFiles: string[];
}

export const EMPTY_CONFIG: PluginConfig = { declarationFiles: [] };

export function isNotebookCell(fileName: string): boolean {
  return fileName.startsWith(CELL_PREFIX);
}

// The configuration the extension sent; it crosses a process boundary, so anything malformed counts as none.
export function parseConfig(value: unknown): PluginConfig {
  if (value === null || typeof value !== 'object') return EMPTY_CONFIG;
  const files = (value as { declarationFiles?: unknown }).declarationFiles;
  if (!Array.isArray(files)) return EMPTY_CONFIG;
  return {
    declarationFiles: files.filter(
      (f): f is string => typeof f === 'string' && f.endsWith('.d.ts') && /^(\/|[A-Za-z]:[\\/])/.test(f),
    ),
  };
}

// A program with notebook cells also holds Node's declarations and the bindings SDK; any other program is left alone.
export function programFileNames(roots: readonly string[], extra: readonly string[]): string[] {
  if (!roots.some(isNotebookCell)) return [...roots];
  return [...roots, ...extra.filter((f) => !roots.includes(f))];
}

// The compiler options of a program with notebook cells: the lib replaced, the DOM gone, everything else kept.
export function programOptions<T extends { lib?: string[] | undefined }>(options: T, roots: readonly string[]): T {
  if (!roots.some(isNotebookCell)) return options;
  return { ...options, lib: [...PROGRAM_LIB] };
}

// A completion that would add an import: a cell is one program with no module of its own, so an import of the
// workspace's files or Node packages cannot work there (the bindings are globals). Such entries name a `source`.
export function isAutoImport(entry: {
  source?: string | undefined;
  hasAction?: true | undefined;
  data?: unknown;
}): boolean {
  if (entry.source !== undefined && entry.source !== '') return true;
  const data = entry.data;
  return (
    data !== null &&
    typeof data === 'object' &&
    typeof (data as { moduleSpecifier?: unknown }).moduleSpecifier === 'string'
  );
}
