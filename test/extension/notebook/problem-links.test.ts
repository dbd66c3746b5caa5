import { describe, expect, test, vi } from 'vitest';
import { locationsIn, problemLinks } from '../../../extension/notebook/problem-links.js';
import { problemSegments } from '../../../webview/protocol/index.js';

vi.mock('vscode', () => import('../helpers/fake-vscode.js'));

const files = new Set(['/work/nb/tour.bindings.ts', '/work/nb/broken.bindings.ts']);
const exists = (file: string) => files.has(file);

describe('problem messages link the files they name', () => {
  test("an esbuild syntax error's bare file:line:col resolves next to the module the message names", () => {
    const message =
      'The cell could not run (bindings): bindings module /work/nb/broken.bindings.ts failed to load: broken.bindings.ts:4:4: Expected "}" but found ")"';
    expect(locationsIn(message, exists).map((l) => l.location)).toEqual([
      { path: '/work/nb/broken.bindings.ts' },
      { path: '/work/nb/broken.bindings.ts', line: 4, column: 4 },
    ]);
    // the renderer draws the spans as links: the text stays the message's own
    const links = problemLinks(message, exists);
    expect(links.map((l) => message.slice(l.start, l.end))).toEqual([
      '/work/nb/broken.bindings.ts',
      'broken.bindings.ts:4:4',
    ]);
    const segments = problemSegments(message, links);
    expect(segments.map((s) => s.text).join('')).toBe(message);
    expect(segments.filter((s) => s.location !== undefined).map((s) => s.location)).toEqual([
      { path: '/work/nb/broken.bindings.ts' },
      { path: '/work/nb/broken.bindings.ts', line: 4, column: 4 },
    ]);
  });

  test('a missing module is not linked (there is nothing to open)', () => {
    const message = 'bindings module not found: /work/nb/missing.bindings.ts';
    expect(locationsIn(message, exists)).toEqual([]);
    expect(problemLinks(message, exists)).toEqual([]);
    expect(problemSegments(message, [])).toEqual([{ text: message }]);
  });

  test('a line or column 0 is not a place to open: the file is linked without it', () => {
    expect(problemLinks('/work/nb/tour.bindings.ts:0:3 oops', exists).map((l) => l.location)).toEqual([
      { path: '/work/nb/tour.bindings.ts' },
    ]);
    expect(problemLinks('/work/nb/tour.bindings.ts:7:0 oops', exists).map((l) => l.location)).toEqual([
      { path: '/work/nb/tour.bindings.ts', line: 7 },
    ]);
  });

  test('spans that overlap, run backwards or fall outside the message (a hand-edited output) stay text', () => {
    const location = { path: '/work/nb/tour.bindings.ts' };
    const message = 'see /work/nb/tour.bindings.ts now';
    const segments = problemSegments(message, [
      { start: 4, end: 29, location },
      { start: 10, end: 12, location },
      { start: 30, end: 28, location },
      { start: 30, end: 400, location },
    ]);
    expect(segments.map((s) => s.text).join('')).toBe(message);
    expect(segments.filter((s) => s.location !== undefined).map((s) => s.text)).toEqual(['/work/nb/tour.bindings.ts']);
  });

  test('a bare name without a line, or one with no absolute path before it, is left as text', () => {
    expect(locationsIn('see tour.bindings.ts for the tools', exists)).toEqual([]);
    expect(locationsIn('tour.bindings.ts:3:1: oops', exists)).toEqual([]);
    expect(locationsIn('/work/nb/tour.bindings.ts:12 threw', exists).map((l) => l.location)).toEqual([
      { path: '/work/nb/tour.bindings.ts', line: 12 },
    ]);
  });
});
