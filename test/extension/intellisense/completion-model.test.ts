import { describe, expect, test } from 'vitest';
import {
  completionContext,
  completionModel,
  memberAt,
  signatureLine,
} from '../../../extension/intellisense/completion-model.js';
import type { BindingsModule } from '../../../runtime/bindings/module-format.js';

const module: BindingsModule = {
  path: '/nb/tools.bindings.ts',
  namespaces: {
    tools: {
      errorClass: { name: 'ToolError', memberNameProperty: 'toolName' },
      functions: {
        search: {
          description: 'Search the documents.',
          input: {
            type: 'object',
            properties: { query: { type: 'string' }, limit: { type: 'integer' } },
            required: ['query'],
            additionalProperties: false,
          },
          output: { type: 'array', items: { type: 'string' } },
        },
        'my-tool': { description: 'A tool with a dash.' },
      },
    },
    db: { functions: { get: {} } },
  },
  dispose: async () => undefined,
};

describe('completionModel', () => {
  const model = completionModel(module);

  test("lists globals and functions in the SDK's order", () => {
    expect(model.map((g) => [g.global, g.errorClass, g.functions.map((f) => f.name)])).toEqual([
      ['db', undefined, ['get']],
      ['tools', 'ToolError', ['my-tool', 'search']],
    ]);
  });

  test('each function carries its declaration as the generated SDK spells it, in both languages', () => {
    const search = model[1]?.functions.find((f) => f.name === 'search');
    expect(search?.declaration.typescript).toContain('Search the documents.');
    expect(signatureLine(search?.declaration.typescript ?? '')).toBe(
      'search(args: { limit?: number; query: string; }): Promise<string[]>;',
    );
    expect(search?.declaration.python).toMatch(/async def search\(self, args: \w+\) -> List\[str\]:/);
    expect(signatureLine(search?.declaration.python ?? '')).toMatch(/^async def search\(/);
    const dashed = model[1]?.functions.find((f) => f.name === 'my-tool');
    expect(dashed?.declaration.typescript).toContain('"my-tool"(args');
  });
});

describe('completionContext', () => {
  test.each([
    ['await tools.', { kind: 'member', global: 'tools', prefix: '', bracket: false }],
    ['await tools.se', { kind: 'member', global: 'tools', prefix: 'se', bracket: false }],
    ['await tools["my', { kind: 'member', global: 'tools', prefix: 'my', bracket: true }],
    ['const x = to', { kind: 'global', prefix: 'to' }],
    ['a.b.c', undefined],
  ])('%j → %j', (line, expected) => {
    expect(completionContext(line)).toEqual(expected);
  });
});

describe('memberAt', () => {
  test('finds `global.name` and `global["name"]` under the cursor', () => {
    const line = 'await tools.search({}); await tools["my-tool"]()';
    expect(memberAt(line, 14)).toEqual({ global: 'tools', name: 'search', start: 6, end: 18 });
    expect(memberAt(line, 38)).toMatchObject({ global: 'tools', name: 'my-tool' });
    expect(memberAt(line, 2)).toBeUndefined();
  });
});
