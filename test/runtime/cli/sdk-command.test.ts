import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadBindingsModule } from '../../../runtime/bindings/module-loader.js';
import { renderSdk } from '../../../runtime/sdk/index.js';
import { ptc, scratchDir } from './cli-harness.js';

const SERVER = path.resolve('test/fixtures/mcp/server.mjs');
const { write } = scratchDir('ptc-sdk-cli-test-');

const TS_MODULE = `import { defineBindings } from 'ptc-playground/bindings';
export default defineBindings({
  tools: {
    errorClass: { name: 'ToolCallError', memberNameProperty: 'toolName' },
    functions: {
      add: {
        description: 'Add two numbers.',
        input: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'], additionalProperties: false },
        output: { type: 'number' },
        mock: async ({ a, b }: { a: number; b: number }) => a + b,
      },
      'my-tool': async () => 'ok',
    },
  },
});
`;

const MCP_MODULE = `export default {
  fx: { errorClass: { name: 'McpToolError', memberNameProperty: 'tool' }, mcp: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(SERVER)}] } },
};
`;

describe.concurrent('ptc sdk', () => {
  test('prints exactly renderSdk(module).text for both languages, byte-stable across invocations', async () => {
    const file = write('tools.bindings.ts', TS_MODULE);
    const module = await loadBindingsModule(file);
    try {
      for (const language of ['typescript', 'python'] as const) {
        const [a, b] = await Promise.all([
          ptc('sdk', '--bindings', file, '--language', language),
          ptc('sdk', '--bindings', file, '--language', language),
        ]);
        expect(a.code).toBe(0);
        expect(a.stdout).toBe(renderSdk(module, language).text);
        expect(b.stdout).toBe(a.stdout);
        expect(a.stdout).toContain(language === 'python' ? '```python\n' : '```ts\n');
      }
      const declarations = await ptc('sdk', '--bindings', file, '--declarations');
      expect(declarations.stdout).toBe(renderSdk(module, 'typescript').declarations);
    } finally {
      await module.dispose();
    }
  });

  test('an MCP-backed namespace is declared from the server tools, and the server is stopped afterwards', async () => {
    const r = await ptc('sdk', '--bindings', write('mcp.bindings.mjs', MCP_MODULE), '--language', 'python');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('class FxAddArgs(TypedDict):\n    a: float\n    b: float');
    expect(r.stdout).toContain(
      '    async def greet(self, args: FxGreetArgs) -> List[McpContent]:\n        """Greets someone in plain text."""',
    );
    expect(r.stdout).toContain('def __getitem__(self, name: Literal["get-env"])');
  });

  test.each([
    [['sdk'], /^ptc sdk: missing --bindings <module>$/m],
    [['sdk', '--bindings', 'x.mjs', '--language', 'rust'], /--language expects one of typescript\|python, got "rust"/],
    [['sdk', '--bindings', '/nonexistent/b.mjs'], /bindings module not found: \/nonexistent\/b\.mjs/],
    [['sdk', '--bogus'], /bogus/],
  ])('misuse %j exits 2', async (args, pattern) => {
    const r = await ptc(...(args as string[]));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(pattern);
  });

  test('an invalid module and a missing MCP server binary exit 2 naming the problem', async () => {
    const bad = await ptc(
      'sdk',
      '--bindings',
      write(
        'bad.bindings.ts',
        "export default { tools: { functions: { add: { input: 'x', mock: async () => 1 } } } };\n",
      ),
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/tools\.functions\.add\.input: expected a JSON Schema object/);
    const missing = write(
      'missing.bindings.mjs',
      "export default { gone: { mcp: { command: '/nonexistent/server' } } };\n",
    );
    const [sdk, run] = await Promise.all([
      ptc('sdk', '--bindings', missing),
      ptc('run', write('p.ts', 'return 1;'), '--bindings', missing),
    ]);
    for (const r of [sdk, run]) {
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/gone: MCP server of gone \(\/nonexistent\/server\) could not start/);
    }
  });
});

describe.concurrent('ptc run with bindings', () => {
  test('a .ts bindings module and an MCP-backed namespace serve a run', async () => {
    const tsModule = write('run.bindings.ts', TS_MODULE);
    const r = await ptc(
      'run',
      write('add.ts', "return [await tools.add({ a: 1, b: 2 }), await tools['my-tool']()];"),
      '--bindings',
      tsModule,
      '--json',
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).value).toEqual([3, 'ok']);
    const mcp = write('run-mcp.bindings.mjs', MCP_MODULE);
    const m = await ptc(
      'run',
      write('mcp.ts', "return [await fx.add({ a: 20, b: 22 }), await fx.greet({ name: 'CLI' })];"),
      '--bindings',
      mcp,
      '--mode',
      'live',
      '--json',
    );
    expect(m.code).toBe(0);
    expect(JSON.parse(m.stdout).value).toEqual([{ sum: 42 }, [{ type: 'text', text: 'Hello, CLI!' }]]);
  });

  test('--seed makes mock fault injection repeatable from the command line', async () => {
    const flaky = write(
      'flaky.bindings.mjs',
      'export default { tools: { functions: { flaky: { failRate: 0.5, mock: async ({ i }) => i } } } };\n',
    );
    const program = write(
      'flaky.ts',
      'return await Promise.all(Array.from({ length: 30 }, (_, i) => tools.flaky({ i }).then(() => 1, () => 0)));',
    );
    const seeded = (seed: string) => ptc('run', program, '--bindings', flaky, '--seed', seed, '--json');
    const [a, b, c] = await Promise.all([seeded('11'), seeded('11'), seeded('12')]);
    const pattern = (r: { stdout: string }): number[] => JSON.parse(r.stdout).value;
    expect(pattern(a)).toEqual(pattern(b));
    expect(pattern(a)).not.toEqual(pattern(c));
    expect(pattern(a).filter((x) => x === 0).length).toBeGreaterThan(3);
    const bad = await ptc('run', program, '--seed', 'abc');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--seed expects a positive integer, got "abc"/);
  });

  test('invalid arguments fail the run as the namespace error class, with one line per issue', async () => {
    const r = await ptc(
      'run',
      write('bad-args.ts', "return await tools.add({ a: 'x' });"),
      '--bindings',
      write('args.bindings.ts', TS_MODULE),
      '--json',
    );
    expect(r.code).toBe(1);
    const result = JSON.parse(r.stdout);
    expect(result.error.message).toMatch(
      /^ToolCallError: invalid arguments for tools\.add: \$\.b: is required\ninvalid arguments for tools\.add: \$\.a: must be number\n/,
    );
    expect(result.calls[0]).toMatchObject({
      ok: false,
      message:
        'invalid arguments for tools.add: $.b: is required\ninvalid arguments for tools.add: $.a: must be number',
    });
  });
});
