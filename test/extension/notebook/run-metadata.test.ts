import { describe, expect, test } from 'vitest';
import { cellRunMetadata, notebookRunMetadata } from '../../../extension/notebook/run-metadata.js';

describe('run metadata', () => {
  test('keeps valid known keys and drops everything else', () => {
    expect(notebookRunMetadata({ bindings: './tools.bindings.ts', mode: 'live', team: 'x' })).toEqual({
      bindings: './tools.bindings.ts',
      mode: 'live',
    });
    expect(
      cellRunMetadata({
        id: 'abc-1',
        mode: 'replay',
        cassette: 'shared',
        limits: { timeoutMs: 1500 },
        collapsed: true,
      }),
    ).toEqual({
      id: 'abc-1',
      mode: 'replay',
      cassette: 'shared',
      limits: { timeoutMs: 1500 },
    });
    expect(cellRunMetadata({ limits: { timeoutMs: -1 } })).toEqual({});
  });

  test.each([
    [{ mode: 'replay' }, {}],
    [{ bindings: '' }, {}],
    [{ bindings: 42 }, {}],
    [{ bindings: 'a\0b' }, {}],
  ])('notebook metadata %j runs as %j', (raw, expected) => {
    expect(notebookRunMetadata(raw)).toEqual(expected);
  });

  test('a cassette name or id that could leave the cassette folder is ignored', () => {
    expect(cellRunMetadata({ id: '../../etc/passwd', cassette: '../x', mode: 'sideways' })).toEqual({});
  });
});
