import { describe, expect, test, vi } from 'vitest';
import { bindingReferences, codeOnly } from '../../../extension/intellisense/binding-references.js';
import { unknownBindingProblems } from '../../../extension/intellisense/binding-diagnostics.js';
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
    const problems = unknownBindingProblems(text, 'typescript', GLOBALS);
    expect(problems).toHaveLength(1);
    expect(text.slice(problems[0]!.start, problems[0]!.end)).toBe('lookupCty');
    expect(problems[0]!.message).toBe(
      "tools.lookupCty is not a function of this notebook's bindings (tools has: lookupCity, my-tool).",
    );
    expect(unknownBindingProblems(text, 'typescript', [])).toEqual([]);
  });
});
