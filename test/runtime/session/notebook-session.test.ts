// The notebook-session layer decides, once for every front end, which bindings module a notebook uses and how one cell
// becomes a run request; `ptc test`'s replay / live / live-recording runs are forced plans of the same resolver.
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { cellRunRequest, notebookBindingsPath } from '../../../runtime/session/notebook-session.js';
import { cellCassettePath } from '../../../runtime/session/plan.js';

const dir = path.resolve('/work/nb');

describe('notebookBindingsPath', () => {
  test('the notebook’s own module, relative to its folder, wins over the default', () => {
    expect(
      notebookBindingsPath({
        metadataBindings: 'b/tools.mjs',
        notebookDir: dir,
        defaultBindings: 'x.mjs',
        workspaceFolder: '/ws',
      }),
    ).toBe(path.join(dir, 'b/tools.mjs'));
  });

  test('without one, the default resolves against the workspace folder, else the notebook’s', () => {
    expect(
      notebookBindingsPath({
        metadataBindings: undefined,
        notebookDir: dir,
        defaultBindings: 'x.mjs',
        workspaceFolder: '/ws',
      }),
    ).toBe(path.resolve('/ws/x.mjs'));
    expect(notebookBindingsPath({ metadataBindings: '  ', notebookDir: dir, defaultBindings: 'x.mjs' })).toBe(
      path.join(dir, 'x.mjs'),
    );
  });

  test('a value that is not a non-empty string names no module', () => {
    for (const metadataBindings of [undefined, 42, '', ['a.mjs'], { path: 'a.mjs' }])
      expect(notebookBindingsPath({ metadataBindings, notebookDir: dir })).toBeUndefined();
  });
});

describe('cellRunRequest', () => {
  const notebookFile = path.join(dir, 'nb.ptcnb');
  const base = { language: 'typescript' as const, program: 'return 1;', cellIndex: 2, notebookDir: dir, notebookFile };
  const legacy = (file: string, own = true) => ({
    path: file,
    notebookFile,
    ...(own ? { notebookDir: dir } : {}),
  });

  test('the cell’s mode over the notebook’s, its limits narrowing the front end’s, the notebook folder as cwd', () => {
    const request = cellRunRequest({
      ...base,
      notebook: { mode: 'live' },
      cell: { id: 'c1', mode: 'replay', limits: { timeoutMs: 500 } },
      limits: { timeoutMs: 10_000, memoryMb: 256 },
    });
    expect(request.plan).toEqual({
      mode: 'replay',
      cassettePath: path.join(dir, '.ptc/cassettes/nb/c1.json'),
      cassetteName: 'c1',
      legacy: legacy(path.join(dir, '.ptc/cassettes/c1.json')),
    });
    expect(request.limits).toMatchObject({ timeoutMs: 500, memoryMb: 256 });
    expect(request.cwd).toBe(dir);
    expect(request.deterministic).toBeUndefined();
  });

  test('ptc test’s forced plans ignore the cell’s own mode', () => {
    const cell = { id: 'c1', mode: 'mock' as const };
    const cassettePath = cellCassettePath({ cell, cellIndex: 2, notebookDir: dir, notebookFile });
    expect(cassettePath).toBe(path.join(dir, '.ptc', 'cassettes', 'nb', 'c1.json'));
    const old = legacy(path.join(dir, '.ptc', 'cassettes', 'c1.json'));
    const forced = (force: NonNullable<Parameters<typeof cellRunRequest>[0]['override']>['force']) =>
      cellRunRequest({ ...base, notebook: undefined, cell, override: { force, deterministic: true } });
    expect(forced({ mode: 'replay' }).plan).toEqual({ mode: 'replay', cassettePath, cassetteName: 'c1', legacy: old });
    expect(forced({ mode: 'live' }).plan).toEqual({ mode: 'live' });
    expect(forced({ mode: 'record', handlers: 'live' }).plan).toEqual({
      mode: 'record',
      handlers: 'live',
      cassettePath,
      cassetteName: 'c1',
      legacy: old,
    });
    expect(forced({ mode: 'replay' }).deterministic).toBe(true);
  });

  test('a cell without an id is named by its position; a forced folder moves its cassette', () => {
    const request = cellRunRequest({
      ...base,
      notebook: undefined,
      cell: undefined,
      override: { force: { mode: 'record', dir: '/rec' } },
    });
    expect(request.plan).toEqual({
      mode: 'record',
      handlers: 'mock',
      cassettePath: path.resolve('/rec/nb/cell-3.json'),
      cassetteName: 'cell-3',
      legacy: legacy(path.resolve('/rec/cell-3.json'), false),
    });
  });
});
