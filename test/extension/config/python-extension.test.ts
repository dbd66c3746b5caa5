import { describe, expect, test } from 'vitest';
import { selectedPythonInterpreter } from '../../../extension/config/python-extension.js';

// The Python extension's API is another extension's data: only a well-formed answer picks the interpreter.
describe('the interpreter selected in the Python extension', () => {
  const api = (active: unknown, resolved?: unknown) => ({
    environments: {
      getActiveEnvironmentPath: () => active,
      ...(resolved === undefined ? {} : { resolveEnvironment: async () => resolved }),
    },
  });

  test('is the resolved executable of the active environment', async () => {
    const chosen = await selectedPythonInterpreter(
      api({ id: 'venv', path: '/work/.venv' }, { executable: { uri: { fsPath: '/work/.venv/bin/python' } } }),
      undefined,
    );
    expect(chosen).toBe('/work/.venv/bin/python');
  });

  test('falls back to the active path when it cannot be resolved, but not to the bare default "python"', async () => {
    expect(await selectedPythonInterpreter(api({ id: 'x', path: '/usr/bin/python3.11' }), undefined)).toBe(
      '/usr/bin/python3.11',
    );
    expect(await selectedPythonInterpreter(api({ id: 'x', path: 'python' }), undefined)).toBeUndefined();
  });

  test.each([
    ['no extension API', undefined],
    ['an API without environments', { other: true }],
    ['an active path of the wrong type', api({ path: 42 })],
    ['an empty path', api({ path: '  ' })],
    [
      'a getter that throws',
      {
        environments: {
          getActiveEnvironmentPath: () => {
            throw new Error('not ready');
          },
        },
      },
    ],
  ])('is undefined for %s (the runtime looks python3 up itself)', async (_name, given) => {
    expect(await selectedPythonInterpreter(given, undefined)).toBeUndefined();
  });
});
