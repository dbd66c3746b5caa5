import { describe, expect, test } from 'vitest';
import { decideRuntimePath } from '../../../extension/config/path-approval.js';
import { keysWhere, parseConfig, SETTINGS } from '../../../extension/config/settings.js';

describe('parseConfig', () => {
  test('unset settings take their defaults', () => {
    const { config, problems } = parseConfig(() => undefined);
    expect(problems).toEqual([]);
    expect(config).toMatchObject({
      pythonPath: '',
      defaultMode: 'mock',
      sandbox: 'best-effort',
      'limits.timeoutMs': SETTINGS['limits.timeoutMs'].default,
      'notebook.saveOutputs': true,
    });
  });

  test('valid values are used as given', () => {
    const values: Record<string, unknown> = {
      defaultMode: 'live',
      'limits.timeoutMs': 1500,
      sandbox: 'required',
      defaultBindings: 'tools.bindings.ts',
    };
    const { config, problems } = parseConfig((key) => values[key]);
    expect(problems).toEqual([]);
    expect(config).toMatchObject(values);
  });

  test.each([
    ['defaultMode', 'replay'],
    ['limits.timeoutMs', -5],
    ['limits.timeoutMs', 1.5],
    ['limits.memoryMb', '512'],
    ['sandbox', 'strict'],
    ['notebook.saveOutputs', 'yes'],
  ])('an invalid %s (%j) falls back to the default and is reported', (key, value) => {
    const { config, problems } = parseConfig((k) => (k === key ? value : undefined));
    expect(config[key as keyof typeof config]).toEqual(SETTINGS[key as keyof typeof SETTINGS].default);
    expect(problems).toHaveLength(1);
    expect(problems[0]?.key).toBe(key);
    expect(problems[0]?.message).toContain(`got ${JSON.stringify(value)}`);
  });

  test('interpreter paths, the sandbox level and the engine are the settings Restricted Mode must not take from a workspace', () => {
    expect(keysWhere('restricted').sort()).toEqual(['engine', 'nodePath', 'pythonPath', 'sandbox']);
  });
});

describe('decideRuntimePath', () => {
  const none = { approved: [], deniedThisSession: new Set<string>() };

  test('no setting uses the default lookup; a user setting is used without asking', () => {
    expect(decideRuntimePath('pythonPath', {}, none)).toEqual({ kind: 'use', path: undefined });
    expect(decideRuntimePath('pythonPath', { globalValue: '/usr/bin/python3.12' }, none)).toEqual({
      kind: 'use',
      path: '/usr/bin/python3.12',
    });
  });

  test('a path from workspace or folder settings needs approval, folder first', () => {
    expect(decideRuntimePath('nodePath', { workspaceValue: '/opt/node' }, none)).toEqual({
      kind: 'ask',
      path: '/opt/node',
      source: 'workspace',
    });
    expect(
      decideRuntimePath('nodePath', { workspaceValue: '/opt/node', workspaceFolderValue: './bin/node' }, none),
    ).toEqual({
      kind: 'ask',
      path: './bin/node',
      source: 'workspace folder',
    });
  });

  test('an approval is remembered per key and path; a denial lasts for the session', () => {
    const inspection = { workspaceValue: '/opt/python' };
    expect(
      decideRuntimePath('pythonPath', inspection, {
        approved: ['pythonPath=/opt/python'],
        deniedThisSession: new Set(),
      }),
    ).toEqual({
      kind: 'use',
      path: '/opt/python',
    });
    expect(
      decideRuntimePath('pythonPath', inspection, { approved: ['nodePath=/opt/python'], deniedThisSession: new Set() })
        .kind,
    ).toBe('ask');
    expect(
      decideRuntimePath('pythonPath', inspection, {
        approved: [],
        deniedThisSession: new Set(['pythonPath=/opt/python']),
      }),
    ).toEqual({
      kind: 'denied',
      path: '/opt/python',
      source: 'workspace',
    });
  });

  test("the same path in user settings counts as the user's own choice", () => {
    expect(
      decideRuntimePath('pythonPath', { globalValue: '/opt/python', workspaceValue: '/opt/python' }, none),
    ).toEqual({ kind: 'use', path: '/opt/python' });
  });

  test('blank workspace values are ignored', () => {
    expect(decideRuntimePath('pythonPath', { workspaceValue: '  ' }, none)).toEqual({ kind: 'use', path: undefined });
  });
});
