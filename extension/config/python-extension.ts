import type * as vscode from 'vscode';

export const PYTHON_EXTENSION_ID = 'ms-python.python';

// What a Python extension export offers, checked by hand: another extension's API is untrusted data.
interface EnvironmentsApi {
  getActiveEnvironmentPath(resource?: vscode.Uri): unknown;
  resolveEnvironment?(environment: unknown): unknown;
}

function environmentsOf(api: unknown): EnvironmentsApi | undefined {
  if (api === null || typeof api !== 'object') return undefined;
  const environments: unknown = (api as { environments?: unknown }).environments;
  if (environments === null || typeof environments !== 'object') return undefined;
  const get: unknown = (environments as { getActiveEnvironmentPath?: unknown }).getActiveEnvironmentPath;
  return typeof get === 'function' ? (environments as EnvironmentsApi) : undefined;
}

function stringAt(value: unknown, ...keys: string[]): string | undefined {
  let current = value;
  for (const key of keys) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return typeof current === 'string' && current.trim() !== '' ? current : undefined;
}

// The interpreter selected in the Python extension for `scope` (its executable, resolved when the extension can), or
// undefined when there is no such extension, no selection, or an answer of the wrong shape.
export async function selectedPythonInterpreter(
  api: unknown,
  scope: vscode.Uri | undefined,
): Promise<string | undefined> {
  const environments = environmentsOf(api);
  if (environments === undefined) return undefined;
  try {
    const active = await Promise.resolve(environments.getActiveEnvironmentPath(scope));
    const path = stringAt(active, 'path');
    if (path === undefined) return undefined;
    if (typeof environments.resolveEnvironment === 'function') {
      const resolved = await Promise.resolve(environments.resolveEnvironment(active));
      const executable = stringAt(resolved, 'executable', 'uri', 'fsPath');
      if (executable !== undefined) return executable;
    }
    // without a resolution, "python" (the default selection) means nothing better than our own PATH lookup
    return path === 'python' ? undefined : path;
  } catch {
    return undefined;
  }
}
