// Where the harness keeps its toolchain cache, results and temporary state; one place so every step agrees.
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// pinned: the verified server release (VS Code 1.139.1, Node extension host); it declares engines.node 24
export const CODE_SERVER_VERSION = '4.139.1';
export const NODE_MAJOR = '24';

// Resolves the toolchain cache (about 700 MB, shared by every clone on the machine): PTC_E2E_CACHE when set, else
// $XDG_CACHE_HOME/ptc-playground/vscode-e2e (~/.cache/...). Outside the repo, so `vsce` never walks it.
export function cacheDir(env = process.env) {
  const fromEnv = env.PTC_E2E_CACHE;
  if (fromEnv && fromEnv.trim() !== '') return path.resolve(fromEnv);
  const xdg =
    env.XDG_CACHE_HOME && env.XDG_CACHE_HOME.trim() !== '' ? env.XDG_CACHE_HOME : path.join(os.homedir(), '.cache');
  return path.join(xdg, 'ptc-playground', 'vscode-e2e');
}

export const RESULTS_DIR = path.join(REPO_ROOT, 'test-results', 'vscode');
export const TEST_SOURCE_DIR = path.join(REPO_ROOT, 'test', 'vscode');
export const SCREENSHOT_DOCS_DIR = path.join(REPO_ROOT, 'docs', 'screenshots');
