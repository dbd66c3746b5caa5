import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { describeProblems, parseNotebook, type NotebookProblem } from '../../../runtime/notebook/parse.js';

const canonical = readFileSync(new URL('./fixtures/canonical.ptcnb', import.meta.url), 'utf8');

function problemsOf(text: string): NotebookProblem[] {
  const r = parseNotebook(text);
  if (r.ok) throw new Error('expected the notebook to be rejected');
  return r.problems;
}

describe('parseNotebook', () => {
  test.each(['', '   \n\t\r\n', '\ufeff'])('opens a blank file (%j) as an empty notebook', (text) => {
    expect(parseNotebook(text)).toEqual({ ok: true, notebook: { version: 1, metadata: {}, cells: [] } });
  });

  test('reads a full notebook with every cell kind and output kind', () => {
    const r = parseNotebook(canonical);
    if (!r.ok) throw new Error(describeProblems(r.problems, 'canonical'));
    expect(r.notebook.metadata).toMatchObject({ bindings: './tour.bindings.ts', mode: 'mock' });
    expect(r.notebook.cells.map((c) => (c.kind === 'code' ? c.language : c.kind))).toEqual([
      'markdown',
      'typescript',
      'python',
      'python',
    ]);
    const cell = r.notebook.cells[1];
    expect(cell?.kind === 'code' && cell.outputs?.[0]?.kind === 'result' && cell.outputs[0].result.value).toBe(3);
  });

  test('keeps fields of saved results that this version does not know', () => {
    const r = parseNotebook(canonical);
    const cell = r.ok ? r.notebook.cells[1] : undefined;
    const output = cell?.kind === 'code' ? cell.outputs?.[0] : undefined;
    expect(output?.kind === 'result' && (output.result as Record<string, unknown>)['x-future-field']).toEqual({
      kept: true,
    });
  });

  test('names the line and column of a syntax error', () => {
    expect(problemsOf('{\n  "version": 1,\n  "cells": [\n    {"kind": "code",}\n  ]\n}')).toEqual([
      { kind: 'syntax', message: "invalid JSON: trailing comma before '}'", line: 4, column: 20 },
    ]);
  });

  test('reports a truncated file as a syntax error at its end', () => {
    const truncated = canonical.slice(0, 300);
    const [problem] = problemsOf(truncated);
    expect(problem?.kind).toBe('syntax');
    expect(problem?.line).toBeGreaterThan(5);
  });

  test('refuses a future format version with an explanation', () => {
    expect(problemsOf('{\n  "version": 2,\n  "cells": []\n}')).toEqual([
      {
        kind: 'version',
        field: 'version',
        line: 2,
        column: 14,
        message:
          'written by a newer PTC Playground (notebook format version 2); this version reads format version 1. Update the extension to open it',
      },
    ]);
  });

  test.each([
    ['{"cells": []}', 'missing "version"'],
    ['{"version": "1", "cells": []}', 'expected 1, got the string "1"'],
    ['[1, 2]', 'expected a JSON object at the top level, got an array'],
  ])('refuses %s', (text, message) => {
    expect(problemsOf(text)[0]?.message).toContain(message);
  });

  test('names each invalid field with its path and line', () => {
    const text = [
      '{',
      '  "version": 1,',
      '  "metadata": { "mode": "replay" },',
      '  "cels": [],',
      '  "cells": [',
      '    { "kind": "code", "language": "ruby", "source": "x" },',
      '    { "kind": "cod", "source": "x" },',
      '    { "kind": "markdown", "source": 7, "metadata": { "id": "../../etc" } },',
      '    { "kind": "code", "language": "python", "source": "", "output": [] }',
      '  ]',
      '}',
    ].join('\n');
    const shown = problemsOf(text).map((p) => `${p.line}:${p.column} ${p.field}: ${p.message}`);
    expect(shown).toEqual([
      '3:25 metadata.mode: expected "mock" or "live", got the string "replay"',
      '4:11 cels: unknown field (extra data belongs in "metadata")',
      '6:35 cells[0].language: expected "typescript" or "python", got the string "ruby"',
      '7:15 cells[1].kind: expected "code", "markdown" or "task", got the string "cod"',
      '8:37 cells[2].source: expected a string, got the number 7',
      '8:60 cells[2].metadata.id: expected 1–64 letters, digits, "-" or "_", starting with a letter or digit',
      '9:69 cells[3].output: unknown field (extra data belongs in the cell\'s "metadata")',
    ]);
  });

  test('reports a missing required field at its parent object', () => {
    const problems = problemsOf('{\n  "version": 1,\n  "cells": [\n    { "kind": "code", "source": "x" }\n  ]\n}');
    expect(problems).toEqual([
      {
        kind: 'schema',
        field: 'cells[0].language',
        message: 'missing required field (expected "typescript" or "python")',
        line: 4,
        column: 5,
      },
    ]);
  });

  test('refuses duplicate structural keys instead of silently keeping the last one', () => {
    const [problem] = problemsOf('{"version": 1, "cells": [], "cells": []}');
    expect(problem).toMatchObject({ kind: 'syntax', line: 1, column: 29 });
    expect(problem?.message).toContain('duplicate key "cells"');
  });

  test('formats problems as file:line:column lines', () => {
    const text = describeProblems(problemsOf('{"version": 3, "cells": []}'), 'a.ptcnb');
    expect(text).toMatch(/^a\.ptcnb:1:13: version: written by a newer PTC Playground/);
  });
});
