// What a bindings module may import in the browser: parsed with acorn before any of it runs; every import form of a
// string is found (static, export-from, dynamic, require), text that only looks like one is not, and the one allowed
// specifier is pointed at the served module.
import { describe, expect, test } from 'vitest';
import { scanModule } from '../../../../runtime/bindings-host/web/module-imports.js';

const scan = (code: string) => scanModule('m.bindings.mjs', code, 'blob:public');

describe('scanModule', () => {
  test('points ptc-playground/bindings at the served module and keeps the rest of the text as it is', () => {
    const code = "import { defineBindings } from 'ptc-playground/bindings';\nexport default defineBindings({});\n";
    expect(scan(code)).toEqual({
      ok: true,
      code: 'import { defineBindings } from "blob:public";\nexport default defineBindings({});\n',
    });
  });

  test.each([
    ["import './side-effect.mjs';", '"./side-effect.mjs" (line 1), a relative import'],
    ["export { x } from '../x.mjs';", 'imports "../x.mjs" (line 1), a relative import'],
    ["export * from '/abs/x.mjs';", '"/abs/x.mjs" (line 1), a file'],
    ["import fs from 'fs';", '"fs" (line 1), a Node built-in module'],
    ["import { readFile } from 'node:fs/promises';", '"node:fs/promises" (line 1), a Node built-in module'],
    ["import lodash from 'lodash';", '"lodash" (line 1), an npm package'],
    ["import x from 'https://example.com/x.mjs';", '"https://example.com/x.mjs" (line 1), a URL'],
    [
      "export default { t: { functions: { f: async () => (await import('./lazy.mjs')).value } } };",
      'calls import() on "./lazy.mjs" (line 1), a relative import',
    ],
    ["const os = require('os');\nexport default {};", 'calls require() on "os" (line 1), a Node built-in module'],
  ])('refuses %s', (code, said) => {
    const result = scan(code);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toContain(said);
    expect(!result.ok && result.message).toContain('bindings module m.bindings.mjs ');
  });

  test('names the first refused import by its line, deep inside the module too', () => {
    const deep = `${'['.repeat(300)}0${']'.repeat(300)}`;
    const code = `const nested = ${deep};\n// import 'not-an-import';\nconst s = "require('nor-this')";\nexport default { t: { functions: { f: async () => import('node:child_process') } } };`;
    const result = scan(code);
    expect(!result.ok && result.message).toContain('calls import() on "node:child_process" (line 4)');
  });

  test("a module nested past the parser's stack fails as data, saying so", () => {
    const result = scan(`export default ${'['.repeat(200_000)}0${']'.repeat(200_000)};`);
    expect(!result.ok && result.message).toContain('bindings module m.bindings.mjs is nested too deeply to parse');
  });

  test('a syntax error is named with its line and column before anything runs', () => {
    const result = scan('export default {\n  t: { functions: { f: async () => ( } },\n};');
    expect(result).toEqual({
      ok: false,
      message: expect.stringMatching(
        /^bindings module m\.bindings\.mjs has a syntax error: Unexpected token \(2:\d+\)$/,
      ),
    });
  });
});
