import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { afterAll, describe, expect, test } from 'vitest';
import { renderSdk } from '../../../runtime/sdk/index.js';
import { fencedBlock, sampleSource } from './sdk-fixture.js';

const exec = promisify(execFile);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-sdk-test-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const libFiles = new Map<string, ts.SourceFile | undefined>();

// Type-checks the declarations plus a program module with the real compiler, in memory, under --strict.
function typeCheck(declarations: string, program: string): string[] {
  const files = new Map([
    ['/virtual/sdk.d.ts', declarations],
    ['/virtual/main.ts', `${program}\nexport {};\n`],
  ]);
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ES2022,
    lib: ['lib.es2022.d.ts'],
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  host.readFile = (f) => files.get(f) ?? readFile(f);
  const getSourceFile = host.getSourceFile.bind(host);
  // lib files parse once per test file, not once per check
  host.getSourceFile = (f, lang) => {
    if (files.has(f)) return ts.createSourceFile(f, files.get(f) as string, lang);
    let cached = libFiles.get(f);
    if (cached === undefined) {
      cached = getSourceFile(f, lang);
      libFiles.set(f, cached);
    }
    return cached;
  };
  host.fileExists = (
    (exists) => (f: string) =>
      files.has(f) || exists(f)
  )(host.fileExists.bind(host));
  const prog = ts.createProgram([...files.keys()], options, host);
  return ts
    .getPreEmitDiagnostics(prog)
    .map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

const GOOD_TS = `
const sum: number = await tools.add({ a: 1, b: 2 });
const hits = await tools.search({ q: 'x', 'x-mode': 'fast', anything: [1, { ok: true }] });
const url: string | undefined = hits[0]?.url;
await tools['my-tool']();
await tools['__proto__']({ free: 'form' });
await tools.import('a/b');
const counts = await tools.list({ tree: { children: [] } });
const n: number | undefined = counts['x'];
const [page] = await Promise.all([web.fetch({ url: 'https://example.com' }), tools.list()]);
try { await tools.add({ a: 1, b: 2 }); } catch (error) {
  if (error instanceof ToolCallError) { const which: 'add' | 'search' | 'my-tool' | '__proto__' | 'import' | 'list' | 'history' | 'pick' | 'quoted' = error.toolName; const name: 'ToolCallError' = error.name; void which; void name; }
}
const history = await tools.history();
const at: string | undefined = history[0]?.at;
await tools.pick({ ids: [1, 'two'] });
void sum; void url; void n; void at; void (page satisfies string);`;

describe('renderSdk', () => {
  test('byte-stable and lexicographic whatever the declaration order', () => {
    const a = renderSdk(sampleSource(), 'typescript');
    const b = renderSdk(sampleSource(true), 'typescript');
    expect(b.text).toBe(a.text);
    expect(renderSdk(sampleSource(true), 'python').text).toBe(renderSdk(sampleSource(), 'python').text);
    const order = ['__proto__(', '  add(', '  import(', '  list(', '  "my-tool"(', '  search('].map((m) =>
      a.declarations.indexOf(m),
    );
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((x, y) => x - y)).toEqual(order);
    expect(a.declarations.indexOf('declare const tools')).toBeLessThan(a.declarations.indexOf('declare const web'));
  });

  test('the description names both required arguments, the contract, and ends with one fenced block', () => {
    for (const language of ['typescript', 'python'] as const) {
      const { text, declarations } = renderSdk(sampleSource(), language);
      expect(text).toMatch(/`code`.*`description`/);
      expect(text).toMatch(/body of an async function/);
      expect(text).toMatch(/top-level `await`, and `return`/);
      expect(text).toMatch(/lossless JSON/);
      expect(text).toMatch(/Only what the program prints/);
      expect(text).toMatch(/`ToolCallError`, whose `toolName` names the tool/);
      expect(text).toMatch(language === 'python' ? /asyncio\.gather/ : /Promise\.all/);
      expect(text).toMatch(
        language === 'python' ? /`web` call raises `RuntimeError`/ : /`web` call rejects with a plain `Error`/,
      );
      expect(text.match(/```/g)).toHaveLength(2);
      expect(fencedBlock(text, language === 'python' ? 'python' : 'ts')).toBe(declarations);
    }
  });

  test('TypeScript: JSDoc from descriptions, quoted exotic keys, comment-safe text', () => {
    const { declarations } = renderSdk(sampleSource(), 'typescript');
    expect(declarations).toContain(
      '  /** Add two numbers. */\n  add(args: {\n    /** left */\n    a: number;\n    b: number;\n  }): Promise<number>;',
    );
    expect(declarations).toContain('"my-tool"(args?: { [key: string]: JsonValue }): Promise<JsonValue>;');
    expect(declarations).toContain('"x-mode"?: "fast" | "deep";');
    expect(declarations).toContain('Beware *\\/ and');
    expect(declarations).toContain(
      'readonly toolName: "__proto__" | "add" | "history" | "import" | "list" | "my-tool" | "pick" | "quoted" | "search";',
    );
    expect(declarations).toContain(
      'history(args?: JsonValue): Promise<({\n    at?: string;\n  } & { [key: string]: JsonValue })[]>;',
    );
    expect(declarations).toContain('ids: (number | string)[];');
  });

  test('TypeScript: declarations plus a correct program pass tsc --strict', () => {
    expect(typeCheck(renderSdk(sampleSource(), 'typescript').declarations, GOOD_TS)).toEqual([]);
  });

  test.each([
    [
      'a wrong argument type',
      "await tools.add({ a: 'one', b: 2 });",
      /Type 'string' is not assignable to type 'number'/,
    ],
    ['a missing required argument', 'await tools.add({ a: 1 });', /Property 'b' is missing/],
    ['an extra key on a closed object', 'await tools.add({ a: 1, b: 2, c: 3 });', /'c' does not exist/],
    ['a value outside an enum', "await tools.search({ q: 'x', 'x-mode': 'slow' });", /"slow"/],
    [
      'misusing a typed result',
      'const r: string = await tools.add({ a: 1, b: 2 });\nvoid r;',
      /'number' is not assignable to type 'string'/,
    ],
    ['an undeclared tool', 'await tools.nope();', /Property 'nope' does not exist/],
    [
      'a wrong element type in an array of a union',
      'await tools.pick({ ids: [true] });',
      /Type 'boolean' is not assignable to type 'string \| number'/,
    ],
  ])('TypeScript: tsc rejects %s', (_label, program, pattern) => {
    const diagnostics = typeCheck(renderSdk(sampleSource(), 'typescript').declarations, program);
    expect(diagnostics.join('\n')).toMatch(pattern);
  });

  test('Python: the block parses with ast and has docstrings, TypedDicts and subscript-only exotic names', async () => {
    const { text, declarations } = renderSdk(sampleSource(), 'python');
    const file = path.join(dir, 'sdk_block.py');
    fs.writeFileSync(file, fencedBlock(text, 'python'));
    const { stdout } = await exec('python3', [
      '-c',
      'import ast,sys; tree = ast.parse(open(sys.argv[1], encoding="utf-8").read()); print(len(tree.body))',
      file,
    ]);
    expect(Number(stdout)).toBeGreaterThan(5);
    expect(declarations).toMatch(/^from typing import [A-Za-z, ]+\n/);
    expect(declarations).toContain('class ToolCallError(Exception):');
    expect(declarations).toContain('    toolName: str');
    expect(declarations).toContain('class ToolsAddArgs(TypedDict):\n    a: float\n    """left"""\n    b: float');
    expect(declarations).toContain(
      '    async def add(self, args: ToolsAddArgs) -> float:\n        """Add two numbers."""\n        ...',
    );
    expect(declarations).toContain('def __getitem__(self, name: Literal["my-tool"])');
    expect(declarations).toContain('def __getitem__(self, name: Literal["import"])');
    // docstrings read back as the exact description, whatever quotes and backslashes it holds
    const docs = await exec('python3', [
      '-c',
      'import ast,json,sys; tree = ast.parse(open(sys.argv[1], encoding="utf-8").read()); print(json.dumps({f.name: ast.get_docstring(f) for c in tree.body if isinstance(c, ast.ClassDef) for f in c.body if isinstance(f, ast.AsyncFunctionDef)}))',
      file,
    ]);
    expect(JSON.parse(docs.stdout)).toMatchObject({
      add: 'Add two numbers.',
      search: sampleSource().namespaces.tools?.functions.search?.description,
      fetch: 'Fetch a URL.',
    });
    expect(declarations).toMatch(/\ntools: Tools\nweb: Web\n$/);
  });

  const pyright = path.resolve('node_modules/pyright/index.js');
  const GOOD_PY = `

async def main() -> None:
    total: float = await tools.add({"a": 1, "b": 2.5})
    hits = await tools.search({"q": "x", "x-mode": "fast"})
    url: str = hits[0]["url"]
    await tools.list()
    await tools["my-tool"]({})
    await tools["import"]("a/b")
    page: str = await web.fetch({"url": "https://example.com"})
    try:
        await tools.add({"a": 1, "b": 2})
    except ToolCallError as error:
        which: str = error.toolName
        print(which, total, url, page)
`;

  // pyright (npm, offline) is the stock checker; a correct call passes and a wrong argument type fails
  test.runIf(fs.existsSync(pyright))(
    'Python: pyright accepts a correct program and rejects a wrong argument type',
    async () => {
      const { declarations } = renderSdk(sampleSource(), 'python');
      const good = path.join(dir, 'good.py');
      const bad = path.join(dir, 'bad.py');
      fs.writeFileSync(good, declarations + GOOD_PY);
      fs.writeFileSync(
        bad,
        `${declarations}\n\nasync def main() -> None:\n    await tools.add({"a": "one", "b": 2})\n`,
      );
      const check = async (file: string): Promise<{ errorCount: number; messages: string[] }> => {
        const out = await exec(process.execPath, [pyright, '--outputjson', file], { cwd: dir }).catch(
          (e: { stdout: string }) => e,
        );
        const report = JSON.parse(out.stdout) as {
          summary: { errorCount: number };
          generalDiagnostics: { message: string }[];
        };
        return { errorCount: report.summary.errorCount, messages: report.generalDiagnostics.map((d) => d.message) };
      };
      const [ok, ko] = await Promise.all([check(good), check(bad)]);
      expect(ok).toEqual({ errorCount: 0, messages: [] });
      expect(ko.errorCount).toBe(1);
      expect(ko.messages[0]).toMatch(/"Literal\['one'\]" is not assignable to "float"/);
      // pyright takes seconds even when idle; the machine may be busy
    },
    180_000,
  );

  test('exotic function and property names always yield a valid TypeScript and Python block', async () => {
    const names = [
      'a b',
      '日本',
      'class',
      '__init__',
      '_private',
      '1abc',
      '',
      '\u2028',
      'lone\ud800',
      '*/',
      '"',
      '\\',
      'self',
      'str',
      'JsonValue',
      'Tools',
      'constructor',
      'new',
      'toString',
      '"""',
    ];
    // (an optional property named like an Object.prototype member, e.g. `toString`, trips tsc's apparent-type check:
    // not used)
    const properties = Object.fromEntries(
      names
        .filter((n) => n !== 'constructor' && n !== 'toString')
        .map((n) => [n, { type: 'string', description: `about ${n} */ """ \\` }]),
    );
    const functions = Object.fromEntries(
      names.map((n) => [
        n,
        {
          description: `${n}\nsecond line ${n}`,
          input: { type: 'object', properties, required: names.slice(0, 3) },
          output: { type: 'object', properties },
        },
      ]),
    );
    const source = {
      namespaces: { tools: { errorClass: { name: 'ToolCallError', memberNameProperty: 'toolName' }, functions } },
    };
    const tsSdk = renderSdk(source, 'typescript');
    expect(
      typeCheck(
        tsSdk.declarations,
        "const r = await tools['a b']({ 'a b': 'x', 日本: 'y', class: 'z' });\nconst s: string | undefined = r['*/'];\nvoid s;",
      ),
    ).toEqual([]);
    const py = renderSdk(source, 'python');
    const file = path.join(dir, 'exotic.py');
    fs.writeFileSync(file, py.declarations);
    await exec('python3', ['-c', 'import ast,sys; ast.parse(open(sys.argv[1], encoding="utf-8").read())', file]);
    // every name is reachable: attributes for plain identifiers, __getitem__ literals for the rest
    for (const n of ['self', 'new', 'toString']) expect(py.declarations).toContain(`async def ${n}(self, args:`);
    for (const n of ['a b', 'class', '__init__', '_private', '1abc', '', 'str', 'JsonValue', 'Tools'])
      expect(py.declarations).toContain(`Literal[${JSON.stringify(n)}]`);
  });

  test('no namespaces renders a usable, valid block', async () => {
    const tsSdk = renderSdk({ namespaces: {} }, 'typescript');
    expect(tsSdk.text).toMatch(/No tools are declared/);
    expect(typeCheck(tsSdk.declarations, 'const x: JsonValue = [1];\nvoid x;')).toEqual([]);
    const py = renderSdk({ namespaces: {} }, 'python');
    const file = path.join(dir, 'empty.py');
    fs.writeFileSync(file, py.declarations);
    await exec('python3', ['-c', 'import ast,sys; ast.parse(open(sys.argv[1]).read())', file]);
  });
});
