import { describe, expect, test, vi } from 'vitest';
import { linkedMessage, locationsIn } from '../../../extension/notebook/problem-links.js';

vi.mock('vscode', () => import('../helpers/fake-vscode.js'));

const files = new Set(['/work/nb/tour.bindings.ts', '/work/nb/broken.bindings.ts']);
const exists = (file: string) => files.has(file);
const argsOf = (markdown: string): unknown[] =>
  [...markdown.matchAll(/\(command:ptcPlayground\.openFileAt\?([^)]+)\)/g)].map(
    (m) => (JSON.parse(decodeURIComponent(m[1]!)) as unknown[])[0],
  );

describe('problem messages link the files they name', () => {
  test("an esbuild syntax error's bare file:line:col resolves next to the module the message names", () => {
    const message =
      'The cell could not run (bindings): bindings module /work/nb/broken.bindings.ts failed to load: broken.bindings.ts:4:4: Expected "}" but found ")"';
    expect(locationsIn(message, exists).map((l) => l.location)).toEqual([
      { path: '/work/nb/broken.bindings.ts' },
      { path: '/work/nb/broken.bindings.ts', line: 4, column: 4 },
    ]);
    const markdown = linkedMessage(message, exists);
    expect(argsOf(markdown)).toEqual([
      { path: '/work/nb/broken.bindings.ts' },
      { path: '/work/nb/broken.bindings.ts', line: 4, column: 4 },
    ]);
    expect(markdown).toContain('[broken\\.bindings\\.ts:4:4](command:');
  });

  test('a missing module is not linked (there is nothing to open); the text stays escaped markdown', () => {
    const message = 'bindings module not found: /work/nb/missing.bindings.ts';
    expect(locationsIn(message, exists)).toEqual([]);
    expect(linkedMessage(message, exists)).toBe('bindings module not found: /work/nb/missing\\.bindings\\.ts');
  });

  test('a bare name without a line, or one with no absolute path before it, is left as text', () => {
    expect(locationsIn('see tour.bindings.ts for the tools', exists)).toEqual([]);
    expect(locationsIn('tour.bindings.ts:3:1: oops', exists)).toEqual([]);
    expect(locationsIn('/work/nb/tour.bindings.ts:12 threw', exists).map((l) => l.location)).toEqual([
      { path: '/work/nb/tour.bindings.ts', line: 12 },
    ]);
  });
});
