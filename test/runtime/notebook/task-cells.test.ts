// Task cells in the `.ptcnb` format: they parse, round-trip byte for byte and are not programs for `ptc notebook`.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseNotebook, serializeNotebook } from '../../../runtime/index.js';
import { ptc } from '../cli/cli-harness.js';

const EXAMPLE = path.resolve('examples/models/tasks.ptcnb');

describe('task cells', () => {
  it('the example task notebook parses and serializes back to the same bytes', () => {
    const text = fs.readFileSync(EXAMPLE, 'utf8');
    const parsed = parseNotebook(text);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.notebook.cells.map((c) => c.kind)).toEqual(['markdown', 'task', 'task']);
    expect(parsed.notebook.cells[2]).toMatchObject({ kind: 'task', metadata: { id: 'paris-lyon', turns: 4 } });
    expect(serializeNotebook(parsed.notebook)).toBe(text);
  });

  it('a task cell has no language or outputs', () => {
    const bad = JSON.stringify({ version: 1, cells: [{ kind: 'task', source: 'x', language: 'typescript' }] });
    const parsed = parseNotebook(bad);
    expect(parsed.ok).toBe(false);
  });

  it('ptc notebook runs only code cells: a notebook of tasks runs nothing and succeeds', async () => {
    const result = await ptc('notebook', EXAMPLE, '--json');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ cells: [] });
  });
});
