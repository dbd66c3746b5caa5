import fs from 'node:fs';
import { describe, expect, test } from 'vitest';
import { CLI } from './cli-harness.js';

// Every `ptc` invocation compiles dist/cli.mjs before it can start a run; on a loaded machine that fixed cost was most
// of the gap between --timeout-ms and the moment `ptc run` returned. It stays what the CLI itself needs.
describe('the ptc bundle', () => {
  const text = fs.readFileSync(CLI, 'utf8');

  test('does not carry amaro (its 3.4 MB of wasm load only when a TypeScript program is stripped)', () => {
    expect(text).not.toMatch(/__wbindgen/);
    expect(text).toMatch(/import\("amaro"\)/);
  });

  test('keeps its source map beside it, not inline', () => {
    expect(text).not.toMatch(/sourceMappingURL=data:/);
  });
});
