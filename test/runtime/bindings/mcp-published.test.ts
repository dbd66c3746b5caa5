import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { BindingsModule } from '../../../runtime/bindings/module-format.js';
import { loadBindingsModule, namespacesFor } from '../../../runtime/bindings/module-loader.js';
import { renderSdk } from '../../../runtime/sdk/index.js';
import { run, runTs } from '../../helpers/runtime.js';

// The published MCP servers (dev dependencies): real peers nobody here wrote. What a program gets from them must be
// what the SDK declares.
const require = createRequire(import.meta.url);
const serverMain = (name: string): string =>
  path.join(path.dirname(require.resolve(`@modelcontextprotocol/${name}/package.json`)), 'dist', 'index.js');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-mcp-published-'));
const modules: BindingsModule[] = [];
afterAll(async () => {
  await Promise.all(modules.map((m) => m.dispose()));
  fs.rmSync(dir, { recursive: true, force: true });
});

let counter = 0;
async function load(body: string, warnings: string[] = []): Promise<BindingsModule> {
  const file = path.join(dir, `published-${++counter}.bindings.mjs`);
  fs.writeFileSync(file, `export default { ${body} };\n`);
  const m = await loadBindingsModule(file, { onWarning: (w) => warnings.push(w) });
  modules.push(m);
  return m;
}

const everything = (extra = ''): string =>
  `ev: { errorClass: { name: 'EverythingError', memberNameProperty: 'tool' }, resources: true, mcp: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(serverMain('server-everything'))}, 'stdio'] }, ${extra} }`;

describe('published MCP servers', () => {
  test('server-everything: text, images with annotations, structured content, resource links followed, progress; its task-only tool is left out', async () => {
    const warnings: string[] = [];
    const m = await load(everything("functions: { 'trigger-long-running-operation': { timeoutMs: 1500 } },"), warnings);
    expect(m.namespaces.ev?.unavailable).toEqual({
      'simulate-research-query': 'it can only run as an MCP task, which is not supported',
    });
    expect(warnings).toContain(
      'ev.simulate-research-query: left out: it can only run as an MCP task, which is not supported',
    );
    const r = await runTs(
      `const echo = await ev.echo({ message: 'hi' });
const annotated = await ev['get-annotated-message']({ messageType: 'success', includeImage: true });
const weather = await ev['get-structured-content']({ location: 'Chicago' });
const links = await ev['get-resource-links']({ count: 2 });
const link = links.find((item) => item.type === 'resource_link');
const followed = await ev.read_resource({ uri: link.uri });
const long = await ev['trigger-long-running-operation']({ duration: 2, steps: 4 });
const refused = await ev['get-structured-content']({ location: 'Atlantis' }).catch((e) => [e.name, e.code ?? null, e.message]);
return { echo, kinds: annotated.map((i) => [i.type, i.mimeType ?? null, i.annotations ?? null]), weather: Object.keys(weather).sort(), link: link.uri, followed: followed.map((c) => c.uri), long, refused };`,
      { bindings: namespacesFor(m, 'live') },
    );
    expect(r.error).toBeUndefined();
    expect(r.value).toEqual({
      echo: [{ type: 'text', text: 'Echo: hi' }],
      kinds: [
        ['text', null, { audience: ['user'], priority: 0.7 }],
        ['image', 'image/png', { audience: ['user'], priority: 0.5 }],
      ],
      weather: ['conditions', 'humidity', 'temperature'],
      link: 'demo://resource/dynamic/blob/1',
      followed: ['demo://resource/dynamic/blob/1'],
      long: [{ type: 'text', text: 'Long running operation completed. Duration: 2 seconds, Steps: 4.' }],
      // refused by our own check of the tool's input schema, before the server sees it
      refused: [
        'EverythingError',
        null,
        expect.stringMatching(/^invalid arguments for ev\.get-structured-content: \$\.location: must be one of/),
      ],
    });
    // 2 s of work with a 1.5 s deadline: its four progress reports kept it alive
    expect(
      r.calls.find((c) => c.name === 'trigger-long-running-operation')?.progress?.map((p) => [p.progress, p.total]),
    ).toEqual([
      [1, 4],
      [2, 4],
      [3, 4],
      [4, 4],
    ]);
    const sdk = renderSdk(m, 'typescript').declarations;
    expect(sdk).toContain(
      'echo(args: {\n    /** Message to echo */\n    message: string;\n  } & { [key: string]: JsonValue }): Promise<McpContent[]>;',
    );
    expect(sdk).toMatch(
      /"get-structured-content"\(args: \{[^]*?\}\): Promise<\{\n {4}\/\*\* Weather conditions description \*\/\n {4}conditions: string;/,
    );
    expect(sdk).toContain(
      '  // not available: "simulate-research-query" (it can only run as an MCP task, which is not supported)',
    );
  });

  test('server-everything from Python: the same shapes, and the result mode a module chose', async () => {
    const m = await load(everything("functions: { echo: { result: 'text' } },"));
    const r = await run(
      'python',
      `echo = await ev.echo({"message": "hi"})
image = await ev["get-tiny-image"]()
return {"echo": echo, "image": [[i["type"], i.get("mimeType")] for i in image]}`,
      { bindings: namespacesFor(m, 'live') },
    );
    expect(r.error).toBeUndefined();
    expect(r.value).toEqual({
      echo: 'Echo: hi',
      image: [
        ['text', null],
        ['image', 'image/png'],
        ['text', null],
      ],
    });
    expect(renderSdk(m, 'python').declarations).toContain('async def echo(self, args: EvEchoArgs) -> str:');
  });

  test('server-memory and server-filesystem: tools with output schemas answer their structured content, typed', async () => {
    fs.mkdirSync(path.join(dir, 'files'));
    fs.writeFileSync(path.join(dir, 'files', 'note.txt'), 'remember the milk\n');
    const m = await load(
      `memory: { mcp: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(serverMain('server-memory'))}], env: { MEMORY_FILE_PATH: ${JSON.stringify(path.join(dir, 'memory.jsonl'))} } } },
  fs: { include: ['read_text_file', 'list_directory'], mcp: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(serverMain('server-filesystem'))}, ${JSON.stringify(path.join(dir, 'files'))}] } },
  thinking: { mcp: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(serverMain('server-sequential-thinking'))}] } }`,
    );
    const r = await runTs(
      `await memory.create_entities({ entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote the first program'] }] });
const graph = await memory.read_graph();
const note = await fs.read_text_file({ path: ${JSON.stringify(path.join(dir, 'files', 'note.txt'))} });
const thought = await thinking.sequentialthinking({ thought: 'first', nextThoughtNeeded: false, thoughtNumber: 1, totalThoughts: 1 });
return { people: graph.entities.map((e) => e.name), note: note.content, thought: thought.thoughtNumber };`,
      { bindings: namespacesFor(m, 'live') },
    );
    expect(r.error).toBeUndefined();
    expect(r.value).toEqual({ people: ['Ada'], note: 'remember the milk\n', thought: 1 });
    expect(Object.keys(m.namespaces.fs?.functions ?? {}).sort()).toEqual(['list_directory', 'read_text_file']);
    const sdk = renderSdk(m, 'typescript').declarations;
    expect(sdk).toMatch(/read_graph\(args\?: \{ \[key: string\]: JsonValue \}\): Promise<\{\n {4}entities: \{/);
    expect(sdk).not.toContain('McpContent');
  });
});
