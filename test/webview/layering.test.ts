import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';

const root = path.resolve(import.meta.dirname, '..', '..', 'webview');

function files(dir: string, ext: RegExp): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? files(full, ext) : ext.test(entry.name) ? [full] : [];
  });
}

const sources = files(root, /\.ts$/).map((file) => ({
  file: path.relative(root, file),
  text: readFileSync(file, 'utf8'),
}));
const styles = files(root, /\.css$/).map((file) => ({
  file: path.relative(root, file),
  text: readFileSync(file, 'utf8'),
}));

describe('webview layering', () => {
  test('imports neither Node built-ins nor vscode', () => {
    const offenders = sources
      .filter(({ text }) => /from\s+['"](node:[^'"]+|vscode|fs|path|os|child_process|crypto|util)['"]/.test(text))
      .map((s) => s.file);
    expect(offenders).toEqual([]);
  });

  test('imports values from runtime/ only from its browser-safe modules: the result schemas and the import-free JSON writer', () => {
    const valueImports = /^(?:import|export)\s+(?!type\b)[^;]*from\s+['"]((?:\.\.\/)+runtime\/[^'"]+)['"]/gm;
    const allowed = [
      '/runtime/json/json-text.js',
      '/runtime/protocol/run-result.js',
      '/runtime/protocol/json-value.js',
      '/runtime/protocol/expectation-report.js',
    ];
    const offenders = sources.flatMap(({ file, text }) =>
      [...text.matchAll(valueImports)]
        .filter((m) => !allowed.some((end) => (m[1] as string).endsWith(end)))
        .map(() => file),
    );
    expect(offenders).toEqual([]);
  });

  test('the runtime JSON writer the webview may import is itself import-free', () => {
    const text = readFileSync(path.resolve(root, '..', 'runtime', 'json', 'json-text.ts'), 'utf8');
    expect(text).not.toMatch(/^\s*(?:import|export)\s[^;]*from\s/m);
  });

  test("the runtime's protocol modules the webview imports are browser-safe: zod/mini and each other only", () => {
    const runtimeProtocol = path.resolve(root, '..', 'runtime', 'protocol');
    // run-result.ts takes the call record from the one call vocabulary, so that module is bundled too, and with it the
    // pause a call may carry (call-pause.ts, whose argument paths are json/mask-path.ts: import-free)
    for (const name of [
      'run-result.ts',
      'json-value.ts',
      'expectation-report.ts',
      'binding-call.ts',
      'call-pause.ts',
    ]) {
      const text = readFileSync(path.join(runtimeProtocol, name), 'utf8');
      const imports = [...text.matchAll(/from\s+['"]([^'"]+)['"]/g)].map((m) => m[1]);
      expect(
        imports.every((spec) =>
          ['zod/mini', './json-value.js', './binding-call.js', './call-pause.js', '../json/mask-path.js'].includes(
            spec as string,
          ),
        ),
        `${name}: ${imports.join(', ')}`,
      ).toBe(true);
    }
  });

  test('never parses HTML: no innerHTML, outerHTML, insertAdjacentHTML or document.write', () => {
    const offenders = sources
      .filter(({ text }) =>
        /\b(innerHTML|outerHTML|insertAdjacentHTML|document\.write|createContextualFragment|DOMParser)\b/.test(text),
      )
      .map((s) => s.file);
    expect(offenders).toEqual([]);
  });

  test('styles use theme variables, never literal colours', () => {
    const offenders = styles.flatMap(({ file, text }) =>
      text
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/var\(--[\w.-]+/g, 'var(')
        .split('\n')
        .filter((line) =>
          /#[0-9a-fA-F]{3,8}\b|\brgba?\(|\bhsla?\(|\b(white|black|red|green|blue|gray|grey|yellow|orange)\b(?![-\w])/.test(
            line,
          ),
        )
        .map((line) => `${file}: ${line.trim()}`),
    );
    expect(offenders).toEqual([]);
  });
});
