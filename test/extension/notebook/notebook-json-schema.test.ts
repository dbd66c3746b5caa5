import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { Ajv } from 'ajv';
import { z } from 'zod';
import { NotebookFileSchema } from '../../../runtime/notebook/schema.js';

// The `.ptcnb` JSON Schema the manifest contributes (jsonValidation: completions and checks when a notebook is opened
// as text) is generated from the zod schema the serializer validates with; UPDATE_NOTEBOOK_SCHEMA=1 rewrites it.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const file = path.join(root, 'schemas', 'ptcnb.schema.json');

function generated(): string {
  const schema = z.toJSONSchema(NotebookFileSchema, {
    target: 'draft-7',
    unrepresentable: 'any',
    io: 'input',
  }) as Record<string, unknown>;
  const described = {
    ...schema,
    title: 'PTC Playground notebook (.ptcnb)',
    description: 'Generated from runtime/notebook/schema.ts; see README "The notebook format".',
  };
  return `${JSON.stringify(described, null, 2)}\n`;
}

describe('the contributed .ptcnb JSON Schema', () => {
  test('is the one generated from the notebook schema', () => {
    if (process.env.UPDATE_NOTEBOOK_SCHEMA === '1' || !existsSync(file)) writeFileSync(file, generated());
    expect(readFileSync(file, 'utf8')).toBe(generated());
  });

  test('the manifest points jsonValidation at it for *.ptcnb', () => {
    const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      contributes: { jsonValidation: { fileMatch: string; url: string }[] };
    };
    expect(manifest.contributes.jsonValidation).toEqual([{ fileMatch: '*.ptcnb', url: './schemas/ptcnb.schema.json' }]);
  });

  test('accepts the canonical notebook and rejects a cell language the format cannot hold', () => {
    const validate = new Ajv({ strict: false, allErrors: true }).compile(
      JSON.parse(readFileSync(file, 'utf8')) as object,
    );
    const canonical = JSON.parse(
      readFileSync(path.join(root, 'test', 'runtime', 'notebook', 'fixtures', 'canonical.ptcnb'), 'utf8'),
    ) as {
      cells: { language?: string }[];
    };
    expect(validate(canonical), JSON.stringify(validate.errors)).toBe(true);
    const wrong = structuredClone(canonical);
    const code = wrong.cells.find((c) => c.language !== undefined);
    if (code !== undefined) code.language = 'ruby';
    expect(validate(wrong)).toBe(false);
  });
});
