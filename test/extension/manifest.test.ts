import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { keysWhere, SETTING_KEYS, SETTINGS } from '../../extension/config/settings.js';
import * as constants from '../../extension/constants.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as Manifest;
const nls = JSON.parse(readFileSync(path.join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;

interface Manifest {
  main: string;
  activationEvents: string[];
  capabilities: {
    untrustedWorkspaces: { supported: unknown; description: string; restrictedConfigurations: string[] };
  };
  contributes: {
    notebooks: { type: string; displayName: string; selector: { filenamePattern: string }[] }[];
    notebookRenderer: { id: string; entrypoint: string; mimeTypes: string[]; requiresMessaging: string }[];
    commands: { command: string; title: string; category?: string; icon?: string }[];
    menus: Record<string, { command: string; when?: string }[]>;
    configuration: { properties: Record<string, Record<string, unknown>> };
  };
}

// JSON Schema facts a zod setting implies (type, enum, bounds), for the comparison below.
function jsonSchemaOf(key: (typeof SETTING_KEYS)[number]): Record<string, unknown> {
  const schema = SETTINGS[key].schema.toJSONSchema() as Record<string, unknown>;
  const out: Record<string, unknown> = { type: schema.type };
  if (Array.isArray(schema.enum)) out.enum = schema.enum;
  if (typeof schema.minimum === 'number') out.minimum = schema.minimum;
  if (typeof schema.maximum === 'number') out.maximum = schema.maximum;
  return out;
}

describe('package.json contributions match the code', () => {
  const properties = manifest.contributes.configuration.properties;

  test('every setting in the typed config table is contributed, and nothing else', () => {
    expect(Object.keys(properties).sort()).toEqual(SETTING_KEYS.map((k) => `${constants.CONFIG_SECTION}.${k}`).sort());
  });

  test.each(SETTING_KEYS)('setting %s has the schema, default and scope of the config table', (key) => {
    const contributed = properties[`${constants.CONFIG_SECTION}.${key}`] as Record<string, unknown>;
    const spec = SETTINGS[key];
    expect(contributed.default).toEqual(spec.default);
    expect(contributed.scope).toBe(spec.scope);
    const expected = jsonSchemaOf(key);
    expect({ type: contributed.type, ...pick(contributed, ['enum', 'minimum', 'maximum']) }).toEqual(expected);
    expect(spec.schema.safeParse(contributed.default).success).toBe(true);
    expect(typeof contributed.markdownDescription).toBe('string');
  });

  test('interpreter paths are machine-overridable and restricted in untrusted workspaces', () => {
    expect(properties['ptcPlayground.pythonPath']?.scope).toBe('machine-overridable');
    expect(properties['ptcPlayground.nodePath']?.scope).toBe('machine-overridable');
    expect(manifest.capabilities.untrustedWorkspaces.supported).toBe('limited');
    expect([...manifest.capabilities.untrustedWorkspaces.restrictedConfigurations].sort()).toEqual(
      keysWhere('restricted')
        .map((k) => `${constants.CONFIG_SECTION}.${k}`)
        .sort(),
    );
  });

  test('every command id in extension/constants.ts is contributed with a title and category, and nothing else', () => {
    const contributed = manifest.contributes.commands;
    expect(contributed.map((c) => c.command).sort()).toEqual(Object.values(constants.COMMANDS).sort());
    for (const command of contributed) {
      expect(command.category, command.command).toBe('%ptcPlayground.category%');
      expect(command.icon, command.command).toMatch(/^\$\([a-z-]+\)$/);
    }
  });

  test('menus only name contributed commands, and notebook menus are scoped to our notebook type', () => {
    const ids = new Set(manifest.contributes.commands.map((c) => c.command));
    for (const [menu, items] of Object.entries(manifest.contributes.menus)) {
      for (const item of items) {
        expect(ids.has(item.command), `${menu}: ${item.command}`).toBe(true);
        if (menu.startsWith('notebook/'))
          expect(item.when, `${menu}: ${item.command}`).toContain(`notebookType == ${constants.NOTEBOOK_TYPE}`);
      }
    }
  });

  test('the notebook type, renderer id, mime types and inspector view type are the constants the code uses', () => {
    const [notebook] = manifest.contributes.notebooks;
    expect(notebook?.type).toBe(constants.NOTEBOOK_TYPE);
    expect(notebook?.selector).toEqual([{ filenamePattern: '*.ptcnb' }]);
    const [renderer] = manifest.contributes.notebookRenderer;
    expect(renderer).toMatchObject({
      id: constants.RENDERER_ID,
      mimeTypes: [constants.RESULT_MIME, constants.PROBLEM_MIME],
      requiresMessaging: 'optional',
      entrypoint: './dist/webview/renderer.js',
    });
    // workspaceContains: the Test Explorer lists a workspace's notebooks before any is opened
    expect(manifest.activationEvents).toEqual([
      `onNotebook:${constants.NOTEBOOK_TYPE}`,
      `onWebviewPanel:${constants.INSPECTOR_VIEW_TYPE}`,
      'workspaceContains:**/*.ptcnb',
    ]);
  });

  test('every %placeholder% resolves in package.nls.json, and no nls entry is unused', () => {
    const text = readFileSync(path.join(root, 'package.json'), 'utf8');
    const used = new Set([...text.matchAll(/"%([^%"]+)%"/g)].map((m) => m[1] as string));
    expect([...used].filter((k) => nls[k] === undefined)).toEqual([]);
    expect(Object.keys(nls).filter((k) => !used.has(k))).toEqual([]);
  });

  test('the bundle `main` points at loads in plain Node and exports activate and deactivate', () => {
    const main = path.join(root, manifest.main);
    expect(existsSync(main)).toBe(true);
    expect(existsSync(path.join(root, 'dist/runtime/node-child.cjs'))).toBe(true);
    const bundle = readFileSync(main, 'utf8');
    // vscode is provided by the editor, never bundled
    expect(bundle).toMatch(/require\("vscode"\)/);
    const require = createRequire(main);
    const Module = require('node:module') as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
    const original = Module._resolveFilename;
    const stub = { l10n: { t: (message: string) => message } };
    require.cache.vscode = {
      id: 'vscode',
      filename: 'vscode',
      loaded: true,
      exports: stub,
    } as unknown as NodeJS.Module;
    Module._resolveFilename = (request, ...rest) => (request === 'vscode' ? 'vscode' : original(request, ...rest));
    try {
      delete require.cache[main];
      const loaded = require(main) as Record<string, unknown>;
      expect(typeof loaded.activate).toBe('function');
      expect(typeof loaded.deactivate).toBe('function');
    } finally {
      Module._resolveFilename = original;
      delete require.cache.vscode;
      delete require.cache[main];
    }
  });
});

function pick(object: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((k) => object[k] !== undefined).map((k) => [k, object[k]]));
}
