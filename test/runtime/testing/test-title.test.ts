import { describe, expect, test } from 'vitest';
import { testTitle, type CodeCell } from '../../../runtime/index.js';

const cell = (source: string, language: 'typescript' | 'python' = 'typescript'): CodeCell => ({
  kind: 'code',
  language,
  source,
  metadata: { id: '0jdsolfl' },
});

// Test Explorer labels (issue 29): what a person calls the cell, never its generated id.
describe('testTitle', () => {
  test.each([
    ['a leading comment', cell('// cities in France, sorted\nreturn 1;'), 'cities in France, sorted'],
    ['a Python comment', cell('# a failing lookup\nraise ValueError()', 'python'), 'a failing lookup'],
    ['a block comment', cell('/* the retry loop */\nreturn 1;'), 'the retry loop'],
    [
      'the first line of code past blank lines and imports',
      cell('\n\nimport asyncio\nfrom x import y\n\ncountries = ["FR"]', 'python'),
      'countries = ["FR"]',
    ],
    [
      'a long line, cut with an ellipsis',
      cell(`const x = ${'1 + '.repeat(40)}1;`),
      `const x = ${'1 + '.repeat(40)}`.slice(0, 71) + '…',
    ],
    ['an empty cell, by its number', cell('  \n'), 'cell 4'],
  ])('%s', (_what, code, title) => {
    expect(testTitle(code, 3)).toBe(title);
  });
});
