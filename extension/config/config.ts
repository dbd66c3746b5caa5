import * as vscode from 'vscode';
import { CONFIG_SECTION } from '../constants.js';
import type { Logger } from '../log/logger.js';
import { type ConfigProblem, parseConfig, type PlaygroundConfig, SETTING_KEYS, type SettingKey } from './settings.js';

// Reads the typed configuration for a notebook (resource-scoped values follow its folder).
export function readConfig(scope?: vscode.Uri): { config: PlaygroundConfig; problems: ConfigProblem[] } {
  const section = vscode.workspace.getConfiguration(CONFIG_SECTION, scope);
  return parseConfig((key) => section.get(key));
}

// Calls `listener` with the changed keys of `ptcPlayground.*`; invalid values are logged once per change.
export function watchConfig(log: Logger, listener: (changed: SettingKey[]) => void): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((event) => {
    const changed = SETTING_KEYS.filter((key) => event.affectsConfiguration(`${CONFIG_SECTION}.${key}`));
    if (changed.length === 0) return;
    for (const problem of readConfig().problems)
      log.warn(`setting ${CONFIG_SECTION}.${problem.key}: ${problem.message}`);
    listener(changed);
  });
}
