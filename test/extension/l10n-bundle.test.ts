import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';

const repo = path.resolve(import.meta.dirname, '..', '..');
const script = path.join(repo, 'scripts', 'l10n.mjs');

function runL10n(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [script, ...args], { cwd: repo, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

// A throwaway repo root with extension/ and webview/ sources.
function fixtureRoot(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-l10n-'));
  temps.push(root);
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), text);
  }
  fs.mkdirSync(path.join(root, 'extension'), { recursive: true });
  fs.mkdirSync(path.join(root, 'webview'), { recursive: true });
  return root;
}

const bundleOf = (root: string): Record<string, string> =>
  JSON.parse(fs.readFileSync(path.join(root, 'l10n', 'bundle.l10n.json'), 'utf8')) as Record<string, string>;

describe('the l10n bundle', () => {
  test('the committed bundle holds exactly the messages of every translation call (npm run l10n regenerates it)', () => {
    const result = runL10n(['--check']);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  test('it holds the extension host, injected-translator, renderer and inspector strings', () => {
    const bundle = bundleOf(repo);
    expect(bundle['Cells do not run in Restricted Mode.']).toBe('Cells do not run in Restricted Mode.');
    expect(bundle['{0} in flight']).toBe('{0} in flight');
    expect(bundle['Open in inspector']).toBe('Open in inspector');
    expect(bundle['Pick two different runs to compare.']).toBe('Pick two different runs to compare.');
  });

  test('the manifest points VS Code at the bundle folder and the VSIX ships it', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')) as { l10n?: string };
    expect(manifest.l10n).toBe('./l10n');
    expect(fs.readFileSync(path.join(repo, '.vscodeignore'), 'utf8').split('\n')).toContain('!l10n/bundle.l10n*.json');
  });

  test('extraction finds vscode.l10n.t, @vscode/l10n and injected t calls, literal strings and templates, sorted', () => {
    const root = fixtureRoot({
      'extension/a.ts':
        "import * as vscode from 'vscode';\nvscode.l10n.t('Zebra {0}', 1);\nconst t = (m: string) => m;\nt(`Apple`);\n",
      'webview/b/c.ts':
        "import * as l10n from '@vscode/l10n';\nl10n.t(\"Mango\");\nl10n.t('Mango');\nother.t('not a translation');\n",
      'webview/d.d.ts': 'declare const x: string; l10n.t(x);\n',
    });
    const result = runL10n(['--root', root]);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(fs.readFileSync(path.join(root, 'l10n', 'bundle.l10n.json'), 'utf8')).toBe(
      '{\n  "Apple": "Apple",\n  "Mango": "Mango",\n  "Zebra {0}": "Zebra {0}"\n}\n',
    );
    expect(runL10n(['--check', '--root', root]).status).toBe(0);
  });

  test.each([
    [
      'a variable',
      'const m = "x";\nvscode.l10n.t(m);',
      'vscode.l10n.t() needs a literal string as its first argument, not m',
    ],
    [
      'a template with substitutions',
      'const n = 1;\nl10n.t(`x ${n}`);',
      'l10n.t() needs a literal string as its first argument, not `x ${n}`',
    ],
    ['a concatenation', '\nt("a" +\n  "b");', 't() needs a literal string as its first argument, not "a" + "b"'],
    ['no argument', '\nt();', 't() needs a literal string as its first argument, not nothing'],
  ])('a call that passes %s as its message fails the check and names the line', (_what, body, expected) => {
    const root = fixtureRoot({ 'extension/bad.ts': body });
    const result = runL10n(['--root', root]);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`extension/bad.ts:2: ${expected}\n`);
    // nothing is written: a bundle without the message would look complete
    expect(fs.existsSync(path.join(root, 'l10n'))).toBe(false);
  });

  test('a bundle that misses a message, or keeps one no call uses, is stale', () => {
    const root = fixtureRoot({ 'webview/a.ts': "l10n.t('One');\nl10n.t('Two');\n" });
    expect(runL10n(['--check', '--root', root]).status).toBe(1);
    expect(runL10n(['--root', root]).status).toBe(0);
    expect(runL10n(['--check', '--root', root]).status).toBe(0);
    fs.writeFileSync(path.join(root, 'webview', 'a.ts'), "l10n.t('One');\n");
    const stale = runL10n(['--check', '--root', root]);
    expect(stale.status).toBe(1);
    expect(stale.stderr).toContain('l10n/bundle.l10n.json is stale');
    expect(bundleOf(root)).toEqual({ One: 'One', Two: 'Two' });
  });
});
