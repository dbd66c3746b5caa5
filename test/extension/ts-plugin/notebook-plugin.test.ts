// The TS server plugin inside a real TS server: notebook cells see ES2023, Node's globals and the bindings SDK
// (completions, hovers, signature help), never the DOM; files outside notebooks keep the default library.
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import build, { TS_PLUGIN_NAME } from '../../../scripts/build-ts-plugin.mjs';
import { TS_PLUGIN_NAME as PLUGIN_NAME } from '../../../extension/ts-plugin/notebook-program.js';
import { renderSdk, type SdkSource } from '../../../runtime/index.js';
import { startTsServer, type TsServer } from './ts-server-client.js';

const SOURCE: SdkSource = {
  namespaces: {
    tools: {
      errorClass: { name: 'ToolError', memberNameProperty: 'toolName' },
      functions: {
        search: {
          description: 'Search the documents.',
          input: {
            type: 'object',
            properties: {
              query: { type: 'string', description: 'Words to look for.' },
              limit: { type: 'integer', description: 'At most this many hits.' },
            },
            required: ['query'],
            additionalProperties: false,
          },
          output: { type: 'array', items: { type: 'string' } },
        },
        fetchRaw: { description: 'Whatever the server answers.' },
      },
    },
  },
};

const CELL = [
  'const found = await tools.search({ query: "x" });',
  'const raw = await tools.fetchRaw({});',
  'console.log(found, raw);',
  '',
  'tools.search({ ',
].join('\n');

interface CompletionInfo {
  entries: { name: string }[];
}
interface QuickInfo {
  displayString: string;
  documentation: string | { text: string }[];
}
interface SignatureHelp {
  items: {
    parameters: { displayParts: { text: string }[]; documentation: { text: string }[] }[];
    documentation: { text: string }[];
  }[];
}

const text = (parts: string | { text: string }[]): string =>
  typeof parts === 'string' ? parts : parts.map((p) => p.text).join('');

describe('ptc-notebook-ts-plugin in a TS server', () => {
  let dir: string;
  let server: TsServer;
  let cell: string;
  let page: string;

  const completions = async (file: string, line: number, offset: number): Promise<string[]> =>
    (await server.request<CompletionInfo>('completionInfo', { file, line, offset })).entries.map((e) => e.name);

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'ptc-ts-plugin-'));
    const probe = path.join(dir, 'probe');
    await build({ out: path.join(probe, 'node_modules', TS_PLUGIN_NAME) });
    const sdk = path.join(dir, 'sdk.d.ts');
    await writeFile(sdk, renderSdk(SOURCE, 'typescript').declarations);
    const notebooks = path.join(dir, 'notebooks');
    const web = path.join(dir, 'web');
    await mkdir(notebooks);
    await mkdir(web);
    server = startTsServer({ plugin: TS_PLUGIN_NAME, probeLocation: probe, logFile: path.join(dir, 'tsserver.log') });
    // what VS Code's TypeScript extension sends for files outside any tsconfig
    await server.request('compilerOptionsForInferredProjects', {
      options: {
        target: 'ES2020',
        module: 'ESNext',
        allowJs: true,
        allowSyntheticDefaultImports: true,
        allowNonTsExtensions: true,
        resolveJsonModule: true,
        strict: true,
      },
    });
    await server.request('configurePlugin', { pluginName: TS_PLUGIN_NAME, configuration: { declarationFiles: [sdk] } });
    // how the TypeScript extension names a notebook cell in the TS server
    cell = `^/vscode-notebook-cell/ts-nul-authority${notebooks}/search.ptcnb#W0sZmlsZQ==`;
    page = path.join(web, 'page.ts');
    server.notify('open', { file: cell, fileContent: CELL, scriptKindName: 'TS', projectRootPath: notebooks });
    server.notify('open', { file: page, fileContent: 'doc', scriptKindName: 'TS', projectRootPath: web });
  });

  afterAll(async () => {
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  test('package.json contributes the package the build makes, by the name the extension configures', async () => {
    const manifest = JSON.parse(await readFile(path.join(import.meta.dirname, '../../../package.json'), 'utf8')) as {
      contributes: { typescriptServerPlugins: { name: string }[] };
    };
    expect(manifest.contributes.typescriptServerPlugins.map((p) => p.name)).toEqual([TS_PLUGIN_NAME]);
    expect(PLUGIN_NAME).toBe(TS_PLUGIN_NAME);
  });

  test("a cell's completions are the program's globals, not the DOM's", async () => {
    const names = await completions(cell, 4, 1);
    for (const name of [
      'tools',
      'ToolError',
      'console',
      'setTimeout',
      'setImmediate',
      'process',
      'Buffer',
      'fetch',
      'structuredClone',
      'URL',
    ]) {
      expect(names, name).toContain(name);
    }
    for (const name of ['ActiveXObject', 'Animation', 'document', 'window', 'HTMLElement', 'localStorage'])
      expect(names, name).not.toContain(name);
  });

  test('a cell is never offered an auto-import (it cannot import); a plain file next to it still is', async () => {
    const notebooks = path.dirname(cell.replace('^/vscode-notebook-cell/ts-nul-authority', ''));
    const helpers = path.join(notebooks, 'helpers.ts');
    const plain = path.join(notebooks, 'plain.ts');
    await writeFile(helpers, 'export const helperFromModule = 1;\n');
    await writeFile(plain, 'helperFrom');
    server.notify('open', {
      file: helpers,
      fileContent: 'export const helperFromModule = 1;\n',
      scriptKindName: 'TS',
      projectRootPath: notebooks,
    });
    server.notify('open', { file: plain, fileContent: 'helperFrom', scriptKindName: 'TS', projectRootPath: notebooks });
    await server.request('configure', {
      preferences: { includeCompletionsForModuleExports: true, includeCompletionsWithInsertText: true },
    });
    const offered = async (file: string, line: number, offset: number) =>
      (
        await server.request<{ entries: { name: string; source?: string }[] }>('completionInfo', {
          file,
          line,
          offset,
          prefix: 'helperFrom',
        })
      ).entries.filter((e) => e.name === 'helperFromModule');
    // the control: the same project's plain file gets the entry as an auto-import from ./helpers
    expect((await offered(plain, 1, 11)).map((e) => e.source)).toEqual([expect.stringContaining('helpers')]);
    expect(await offered(cell, 4, 1)).toEqual([]);
  });

  test('a file outside notebooks keeps the default library', async () => {
    const names = await completions(page, 1, 4);
    expect(names).toContain('document');
    expect(names).not.toContain('tools');
  });

  test('hovers over a bindings call and its results name their types, never any', async () => {
    const call = await server.request<QuickInfo>('quickinfo', { file: cell, line: 1, offset: 27 });
    expect(call.displayString).toContain('search(args: {');
    expect(call.displayString).toContain('Promise<string[]>');
    expect(text(call.documentation)).toContain('Search the documents.');
    const found = await server.request<QuickInfo>('quickinfo', { file: cell, line: 1, offset: 8 });
    expect(found.displayString).toBe('const found: string[]');
    const raw = await server.request<QuickInfo>('quickinfo', { file: cell, line: 2, offset: 8 });
    expect(raw.displayString).toBe('const raw: JsonValue');
    for (const info of [call, found, raw]) expect(info.displayString).not.toMatch(/\bany\b/);
  });

  test("signature help inside tools.search({ names the parameter object's fields", async () => {
    const help = await server.request<SignatureHelp>('signatureHelp', { file: cell, line: 5, offset: 16 });
    const item = help.items[0];
    expect(item).toBeDefined();
    const parameter = text(item?.parameters[0]?.displayParts ?? []);
    expect(parameter).toContain('query: string');
    expect(parameter).toContain('limit?: number');
    expect(text(item?.documentation ?? [])).toContain('Search the documents.');
    const fields = await completions(cell, 5, 16);
    expect(fields).toEqual(expect.arrayContaining(['query', 'limit']));
  });

  test('a new configuration replaces the SDK the cells see', async () => {
    const other = path.join(dir, 'other.d.ts');
    await writeFile(other, renderSdk({ namespaces: { db: { functions: { get: {} } } } }, 'typescript').declarations);
    await server.request('configurePlugin', {
      pluginName: TS_PLUGIN_NAME,
      configuration: { declarationFiles: [other] },
    });
    const names = await completions(cell, 4, 1);
    expect(names).toContain('db');
    expect(names).not.toContain('tools');
    await server.request('configurePlugin', {
      pluginName: TS_PLUGIN_NAME,
      configuration: { declarationFiles: 'not a list' },
    });
    expect(await completions(cell, 4, 1)).not.toContain('db');
  });
});
