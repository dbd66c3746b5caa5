import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { parseNotebook } from '../../../runtime/notebook/parse.js';
import { RawSliceMemory } from '../../../runtime/notebook/raw-memory.js';
import type { NotebookFile } from '../../../runtime/notebook/schema.js';
import { NotebookWriteError, serializeNotebook } from '../../../runtime/notebook/serialize.js';

const canonical = readFileSync(new URL('./fixtures/canonical.ptcnb', import.meta.url), 'utf8');

function parsed(text: string, memory?: RawSliceMemory): NotebookFile {
  const r = parseNotebook(text, memory);
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return r.notebook;
}

// what a trip through the VS Code model does to metadata: a structured JSON copy
function cloned<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

describe('serializeNotebook', () => {
  test('round-trips a canonical file byte for byte, unknown metadata spellings included', () => {
    const memory = new RawSliceMemory();
    expect(serializeNotebook(cloned(parsed(canonical, memory)), { memory })).toBe(canonical);
  });

  test('without the remembered spellings it still writes the same values', () => {
    const text = serializeNotebook(parsed(canonical));
    expect(text).not.toBe(canonical);
    expect(JSON.parse(text)).toEqual(cloned(JSON.parse(canonical)));
  });

  test('writes a changed unknown value canonically and leaves the others verbatim', () => {
    const memory = new RawSliceMemory();
    const notebook = cloned(parsed(canonical, memory));
    (notebook.metadata as Record<string, unknown>)['x-plain'] = { z: 2 };
    const text = serializeNotebook(notebook, { memory });
    expect(text).toContain('"x-team": {"owner":"ptc","weights":[1.0,2.50,1e3],"10":"ten","b":"\\u00e9\\/"},');
    expect(text).toContain('"x-plain": {\n      "z": 2\n    }');
    expect(text).toContain('"x-cell": 12345678901234567890,');
    expect(text).toContain('"x-neg": -0\n');
  });

  test('writes known keys in a stable order, whatever order they arrive in', () => {
    const shuffled = {
      cells: [
        { outputs: [], source: 'return 1', metadata: { mode: 'mock', id: 'c1' }, language: 'typescript', kind: 'code' },
      ],
      metadata: { mode: 'live', 'x-a': 1, bindings: 'b.ts' },
      version: 1,
    } as unknown as NotebookFile;
    expect(serializeNotebook(shuffled)).toBe(
      [
        '{',
        '  "version": 1,',
        '  "metadata": {',
        '    "bindings": "b.ts",',
        '    "mode": "live",',
        '    "x-a": 1',
        '  },',
        '  "cells": [',
        '    {',
        '      "kind": "code",',
        '      "language": "typescript",',
        '      "source": "return 1",',
        '      "metadata": {',
        '        "id": "c1",',
        '        "mode": "mock"',
        '      }',
        '    }',
        '  ]',
        '}',
        '',
      ].join('\n'),
    );
  });

  test('an empty notebook is a small valid file that reads back as empty', () => {
    const text = serializeNotebook({ version: 1, metadata: {}, cells: [] });
    expect(text).toBe('{\n  "version": 1,\n  "metadata": {},\n  "cells": []\n}\n');
    expect(parsed(text)).toEqual({ version: 1, metadata: {}, cells: [] });
  });

  test('leaves outputs out when they are transient', () => {
    const text = serializeNotebook(parsed(canonical), { includeOutputs: false });
    expect(text).not.toContain('"outputs"');
    expect(parsed(text).cells).toHaveLength(4);
  });

  test("a notebook's own saveOutputs: false keeps its outputs out even when the editor saves them", () => {
    const notebook = parsed(canonical);
    expect(serializeNotebook(notebook)).toContain('"outputs"');
    const own = { ...notebook, metadata: { ...notebook.metadata, saveOutputs: false } };
    const text = serializeNotebook(own, { includeOutputs: true });
    expect(text).not.toContain('"outputs"');
    expect(parsed(text).metadata).toMatchObject({ saveOutputs: false });
    expect(serializeNotebook({ ...notebook, metadata: { ...notebook.metadata, saveOutputs: true } })).toContain(
      '"outputs"',
    );
  });

  test('refuses to write a notebook it could not read back', () => {
    const bad = {
      version: 1,
      metadata: {},
      cells: [{ kind: 'code', language: 'javascript', source: '' }],
    } as unknown as NotebookFile;
    expect(() => serializeNotebook(bad)).toThrow(NotebookWriteError);
    expect(() => serializeNotebook(bad)).toThrow(/cells\[0\]\.language/);
    const nan = { version: 1, metadata: { x: Number.NaN }, cells: [] } as unknown as NotebookFile;
    expect(() => serializeNotebook(nan)).toThrow(/metadata\.x is NaN/);
  });

  test.each([5_000, 200_000])('writes a %i-deep return value, call and summary, and reads them back', (depth) => {
    let value: unknown = 0;
    for (let i = 0; i < depth; i++) value = [value];
    const call = { id: 1, global: 'tools', name: 'echo', args: value, ok: true, value, startedAtMs: 0, durationMs: 1 };
    const result = {
      language: 'typescript',
      value,
      logs: [],
      calls: [call],
      callSummary: {
        total: 1_001,
        omitted: 999,
        byBinding: [{ global: 'tools', name: 'echo', calls: 1_001, ok: 1_001, failed: 0 }],
        last: [call],
      },
      sandbox: { network: 'denied', filesystem: 'denied', childProcess: 'denied', enforcement: 'full', mechanisms: [] },
      durationMs: 1,
    };
    const notebook = {
      version: 1,
      metadata: {},
      cells: [{ kind: 'code', language: 'typescript', source: 'return x', outputs: [{ kind: 'result', result }] }],
    } as unknown as NotebookFile;
    const text = serializeNotebook(notebook);
    // five copies of the value, each written compactly past the indentation limit
    expect(text.length).toBeLessThan(5 * 2 * depth + 50_000);
    expect(serializeNotebook(parsed(text))).toBe(text);
  });
});
