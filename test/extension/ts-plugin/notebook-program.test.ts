import { describe, expect, test } from 'vitest';
import {
  isNotebookCell,
  parseConfig,
  programFileNames,
  programOptions,
} from '../../../extension/ts-plugin/notebook-program.js';

const CELL = '^/vscode-notebook-cell/ts-nul-authority/work/a.ptcnb#W0sZmlsZQ==';

describe('notebook programs', () => {
  test('only VS Code notebook cells count as cells', () => {
    expect(isNotebookCell(CELL)).toBe(true);
    expect(isNotebookCell('/work/vscode-notebook-cell/a.ts')).toBe(false);
    expect(isNotebookCell('^/untitled/ts-nul-authority/Untitled-1')).toBe(false);
  });

  test('a program with cells gets the extra declarations once; any other program is unchanged', () => {
    expect(programFileNames([CELL, '/sdk.d.ts'], ['/node.d.ts', '/sdk.d.ts'])).toEqual([
      CELL,
      '/sdk.d.ts',
      '/node.d.ts',
    ]);
    expect(programFileNames(['/work/page.ts'], ['/node.d.ts'])).toEqual(['/work/page.ts']);
  });

  test('a program with cells gets ES2023 as its whole library, other options kept', () => {
    const options = { target: 7, lib: ['lib.dom.d.ts', 'lib.es2020.d.ts'], strict: true };
    expect(programOptions(options, [CELL])).toEqual({ target: 7, lib: ['lib.es2023.d.ts'], strict: true });
    expect(programOptions(options, ['/work/page.ts'])).toBe(options);
  });

  test('a malformed configuration counts as none, and only absolute .d.ts paths are kept', () => {
    for (const bad of [undefined, null, 'x', 42, [], { declarationFiles: 'a.d.ts' }])
      expect(parseConfig(bad)).toEqual({ declarationFiles: [] });
    expect(parseConfig({ declarationFiles: ['/a/sdk.d.ts', 'relative.d.ts', '/a/code.ts', 7, null] })).toEqual({
      declarationFiles: ['/a/sdk.d.ts'],
    });
  });
});
