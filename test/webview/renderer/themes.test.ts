import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';

// The test page's theme stand-ins must define every variable the webview CSS reads, or screenshots would lie.
const repo = path.resolve(import.meta.dirname, '..', '..', '..');
const css = ['webview/result-view/result-view.css', 'webview/inspector/inspector.css']
  .map((f) => readFileSync(path.join(repo, f), 'utf8'))
  .join('\n');
const themes = readFileSync(path.join(repo, 'test/webview/page/themes.css'), 'utf8');
const used = [...new Set([...css.matchAll(/var\((--vscode-[\w.-]+)/g)].map((m) => m[1] as string))].sort();
// only high-contrast themes define it, in VS Code as here
const HC_ONLY = new Set(['--vscode-contrastBorder']);
const COMMON = new Set([
  '--vscode-font-family',
  '--vscode-font-size',
  '--vscode-editor-font-family',
  '--vscode-editor-font-size',
]);

function block(selector: string): string {
  const start = themes.indexOf(`${selector} {`);
  return start === -1 ? '' : themes.slice(start, themes.indexOf('}', start));
}

describe('test page themes', () => {
  test('the webview reads a known set of theme variables', () => {
    expect(used.length).toBeGreaterThan(30);
    expect(readdirSync(path.join(repo, 'webview')).length).toBeGreaterThan(0);
  });

  test.each(['body.vscode-light', 'body.vscode-dark', 'body.vscode-high-contrast'])(
    '%s defines every variable the webview uses',
    (selector) => {
      const defined = block(selector) + block('body');
      const missing = used.filter(
        (name) => !defined.includes(`${name}:`) && !(HC_ONLY.has(name) && !selector.includes('high-contrast')),
      );
      expect(missing).toEqual([]);
      if (!selector.includes('high-contrast')) expect(block(selector)).not.toContain('--vscode-contrastBorder');
      for (const name of COMMON) expect(block('body')).toContain(name);
    },
  );
});
