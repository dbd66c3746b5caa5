import { describe, expect, test, vi } from 'vitest';
import { bindingReferences, codeOnly } from '../../../extension/intellisense/binding-references.js';
import { bindingProblems } from '../../../extension/intellisense/binding-diagnostics.js';
import type { GlobalInfo } from '../../../extension/intellisense/completion-model.js';

vi.mock('vscode', () => import('../helpers/fake-vscode.js'));

const GLOBALS: GlobalInfo[] = [
  {
    global: 'tools',
    errorClass: 'ToolError',
    functions: ['lookupCity', 'my-tool'].map((name) => ({
      name,
      description: undefined,
      declaration: { typescript: '', python: '' },
    })),
  },
];
const names = (text: string, language: 'typescript' | 'python') =>
  bindingReferences(text, language, ['tools']).map((r) => `${r.global}.${r.name}`);

describe('references to bindings in a cell', () => {
  test('member and subscript references, never inside strings or comments, never a member of something else', () => {
    const ts = [
      "const a = await tools.lookupCity({ name: 'tools.fake' });",
      '// tools.commented()',
      '/* tools.blocked() */',
      "const b = await tools['my-tool']({});",
      'const c = other.tools.notOurs();',
      'const d = `${tools.inTemplate}`;',
      'await tools . spaced();',
    ].join('\n');
    expect(names(ts, 'typescript')).toEqual(['tools.lookupCity', 'tools.my-tool', 'tools.spaced']);
    const py = [
      '# tools.commented()',
      'x = await tools.lookupCity({"name": "tools.no"})',
      '"""tools.doc()"""',
      "y = await tools['my-tool']({})",
    ].join('\n');
    expect(names(py, 'python')).toEqual(['tools.lookupCity', 'tools.my-tool']);
  });

  test('blanking keeps offsets and lines, so a reference maps back to its place', () => {
    const text = "x('a\\'b');\ntools.go()";
    const code = codeOnly(text, 'typescript');
    expect(code).toHaveLength(text.length);
    expect(code.split('\n')).toHaveLength(2);
    const [ref] = bindingReferences(text, 'typescript', ['tools']);
    expect(text.slice(ref!.start, ref!.end)).toBe('go');
  });

  test('a cell that binds the name itself is not checked (it means its own object)', () => {
    expect(names('const tools = { x() {} };\ntools.x();', 'typescript')).toEqual([]);
    expect(names('tools = Helper()\ntools.run()', 'python')).toEqual([]);
    expect(names('const f = (tools) => tools.run();', 'typescript')).toEqual([]);
  });
});

describe('diagnostics for calls the bindings do not declare', () => {
  test('an unknown function is an error naming what the namespace has; declared ones and unknown globals are not', () => {
    const text = "await tools.lookupCity({ name: 'x' });\nawait tools.lookupCty({ name: 'x' });\nawait web.fetch({});";
    const problems = bindingProblems(text, 'typescript', GLOBALS);
    expect(problems).toHaveLength(1);
    expect(text.slice(problems[0]!.start, problems[0]!.end)).toBe('lookupCty');
    expect(problems[0]!.message).toBe(
      "tools.lookupCty is not a function of this notebook's bindings (tools has: lookupCity, my-tool).",
    );
    expect(bindingProblems(text, 'typescript', [])).toEqual([]);
  });
});

describe('diagnostics for literal arguments the input schema refuses', () => {
  const CITY = {
    type: 'object',
    properties: {
      name: { type: 'string' },
      limit: { type: 'integer' },
      tags: { type: 'array', items: { type: 'string' } },
      unit: { enum: ['metric', 'imperial'] },
      where: {
        type: 'object',
        properties: { lat: { type: 'number' } },
        required: ['lat'],
        additionalProperties: false,
      },
    },
    required: ['name'],
    additionalProperties: false,
  };
  const SHAPED: GlobalInfo[] = [
    {
      global: 'tools',
      errorClass: 'ToolError',
      functions: [
        { name: 'lookupCity', description: undefined, declaration: { typescript: '', python: '' }, input: CITY },
        {
          name: 'open-tool',
          description: undefined,
          declaration: { typescript: '', python: '' },
          input: { type: 'object', properties: { q: { type: 'string' } } },
        },
      ],
    },
  ];
  const shapes = (text: string, language: 'typescript' | 'python') =>
    bindingProblems(text, language, SHAPED).map((p) => [text.slice(p.start, p.end), p.message, p.code]);

  test('Python: a dict literal or keyword arguments, each class of mistake on the text that makes it', () => {
    expect(shapes('city = await tools.lookupCity({"nme": "Paris"})', 'python')).toEqual([
      [
        '"nme"',
        'tools.lookupCity: "nme" is not a field of this argument (it has: name, limit, tags, unit, where).',
        'argument-shape',
      ],
      ['{', 'tools.lookupCity: the argument is missing the required field "name".', 'argument-shape'],
    ]);
    expect(shapes('await tools.lookupCity(name=42, limit=2.5)', 'python')).toEqual([
      ['42', 'tools.lookupCity: "name" should be a string, not a number.', 'argument-shape'],
      ['2.5', 'tools.lookupCity: "limit" should be an integer, not a number.', 'argument-shape'],
    ]);
    expect(
      shapes("await tools.lookupCity({'name': 'x', 'tags': ['a', 3], 'unit': 1, 'where': {}})", 'python').map(
        (p) => p[1],
      ),
    ).toEqual([
      'tools.lookupCity: "tags[1]" should be a string, not a number.',
      'tools.lookupCity: "unit" should be one of "metric", "imperial".',
      'tools.lookupCity: "where" is missing the required field "lat".',
    ]);
    expect(shapes('await tools.lookupCity()', 'python').map((p) => p[1])).toEqual([
      'tools.lookupCity: the argument is missing the required field "name".',
    ]);
    expect(shapes('await tools["lookupCity"](name=None)', 'python').map((p) => p[1])).toEqual([
      'tools.lookupCity: "name" should be a string, not null.',
    ]);
  });

  test('lenient: variables, calls, spreads, f-strings, expressions, comments and open schemas are not reported', () => {
    for (const ok of [
      'await tools.lookupCity({"name": city})',
      'await tools.lookupCity({**base})',
      'await tools.lookupCity(**kwargs)',
      'await tools.lookupCity(args)',
      'await tools.lookupCity({"name": f"{x}", "limit": 1.0})',
      'await tools.lookupCity({"name": "a" + b, "limit": n * 2})',
      'await tools.lookupCity({  # the city\n  "name": "Paris",  # more\n})',
      'await tools.lookupCity({"name": """Paris"""})',
      'await tools["open-tool"]({"q": "x", "extra": 1})',
    ])
      expect(shapes(ok, 'python'), ok).toEqual([]);
    for (const ok of [
      'await tools.lookupCity({ name })',
      'await tools.lookupCity({ ...base, limit: 3 })',
      'await tools.lookupCity({ name: `x${y}` })',
      "await tools.lookupCity({ name: 'x' /* c */, tags: [...more] })",
      "await tools.lookupCity({ [key]: 'x' })",
    ])
      expect(shapes(ok, 'typescript'), ok).toEqual([]);
  });

  test('TypeScript: the same classes (the TS server reports no semantic diagnostics in notebook cells)', () => {
    const text = 'await tools.lookupCity({ name: 1, extra: true });';
    expect(shapes(text, 'typescript').map((p) => p[1])).toEqual([
      'tools.lookupCity: "name" should be a string, not a number.',
      'tools.lookupCity: "extra" is not a field of this argument (it has: name, limit, tags, unit, where).',
    ]);
  });
});
