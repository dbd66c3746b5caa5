import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { describeImportProblem, planImport, type ImportProblem } from '../../../runtime/import/index.js';
import { IMPORT_LIMITS } from '../../../runtime/import/limits.js';
import { EXAMPLES, FIXTURES, scratch } from './import-helpers.js';

const fresh = scratch('ptc-import-errors-');

// Imports one file that must be refused; returns the one problem (file, line, field, message).
async function refused(
  name: string,
  content: string | Buffer,
  options: { format?: 'anthropic' | 'openai' | 'deepseek' | 'ptc-trace' } = {},
): Promise<ImportProblem> {
  const dir = fresh();
  const file = path.join(dir, name);
  fs.writeFileSync(file, content);
  const outcome = await planImport({ files: [file], labels: [name], out: path.join(dir, 'out.ptcnb'), ...options });
  if (outcome.ok) throw new Error(`${name} was imported`);
  expect(outcome.message).toBe(describeImportProblem(outcome.problem));
  // planning writes nothing
  expect(fs.readdirSync(dir)).toEqual([name]);
  return outcome.problem;
}

const anthropicRequest = (blocks: unknown[]): string =>
  JSON.stringify(
    {
      model: 'm',
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: blocks },
      ],
    },
    null,
    2,
  );

describe('malformed transcripts get one message naming the file, line and field', () => {
  test('truncated JSON', async () => {
    const text = fs.readFileSync(path.join(EXAMPLES, 'anthropic-sales.json'), 'utf8');
    const cut = text.slice(0, Math.floor(text.length / 2));
    const problem = await refused('cut.json', cut);
    expect(problem).toMatchObject({
      file: 'cut.json',
      line: cut.split('\n').length,
      message: expect.stringMatching(/^invalid JSON: /),
    });
  });

  test('one broken JSONL line', async () => {
    const lines = fs.readFileSync(path.join(EXAMPLES, 'deepseek-session.jsonl'), 'utf8').split('\n');
    lines[4] = `${lines[4]?.slice(0, 30)}`;
    expect(await refused('broken.jsonl', lines.join('\n'))).toMatchObject({
      file: 'broken.jsonl',
      line: 5,
      message: expect.stringMatching(/^invalid JSON: /),
    });
  });

  test('a field of the wrong type', async () => {
    const text = anthropicRequest([
      { type: 'server_tool_use', id: 's1', name: 'code_execution', input: { code: 'print(1)' } },
      { type: 'tool_use', id: 't1', name: 'f', input: {}, caller: { type: 'code_execution_20250825', tool_id: 42 } },
    ]);
    const problem = await refused('types.json', text);
    expect(problem).toMatchObject({
      field: 'messages[1].content[1].caller.tool_id',
      message: 'expected a string, got the number 42',
    });
    expect(problem.line).toBe(text.split('\n').findIndex((l) => l.includes('"tool_id": 42')) + 1);
  });

  test('a missing field', async () => {
    const problem = await refused(
      'missing.json',
      anthropicRequest([{ type: 'server_tool_use', name: 'code_execution', input: { code: 'print(1)' } }]),
    );
    expect(problem).toMatchObject({
      field: 'messages[1].content[0].id',
      message: 'missing required field (expected a string)',
    });
  });

  test('an unknown format', async () => {
    expect(await refused('other.json', '{"hello": "world"}')).toMatchObject({
      line: 1,
      message: expect.stringMatching(/^cannot tell which transcript format this is .*--format$/),
    });
  });

  test('a transcript without programs', async () => {
    const text = JSON.stringify({
      model: 'm',
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: [{ type: 'text', text: 'hello' }] },
      ],
    });
    expect(await refused('chat.json', text)).toMatchObject({
      message: expect.stringMatching(/^no programs found: read as Anthropic/),
    });
  });

  test('the wrong --format', async () => {
    const text = fs.readFileSync(path.join(EXAMPLES, 'deepseek-session.jsonl'), 'utf8');
    expect(await refused('ds.jsonl', text, { format: 'openai' })).toMatchObject({
      line: 1,
      message:
        'no programs found: read as OpenAI Responses API (programmatic tool calling), it holds no "program" or "code_interpreter_call" item',
    });
  });

  test('a logged body that is not JSON', async () => {
    const text = JSON.stringify({
      request: { headers: {}, body: '<html>502 Bad Gateway</html>' },
      response: { body: {} },
    });
    expect(await refused('html.json', text)).toMatchObject({
      field: 'request.body',
      message: expect.stringMatching(/^is not valid JSON text: /),
    });
  });

  test('a logged event stream whose data is not JSON', async () => {
    const text = JSON.stringify({
      request: { headers: {}, body: {} },
      response: { body: 'event: message_start\ndata: {"type": "message_start",\n\n' },
    });
    expect(await refused('sse.json', text)).toMatchObject({
      field: 'response.body',
      message: expect.stringMatching(/^holds a streamed event whose data is not JSON: /),
    });
  });

  test('a value that cannot cross a binding losslessly', async () => {
    const text = anthropicRequest([
      { type: 'server_tool_use', id: 's1', name: 'code_execution', input: { code: 'print(1)' } },
      {
        type: 'tool_use',
        id: 't1',
        name: 'f',
        input: { big: 1 },
        caller: { type: 'code_execution_20250825', tool_id: 's1' },
      },
    ]).replace('"big": 1', '"big": 1e400');
    expect(await refused('lossy.json', text)).toMatchObject({
      field: 'messages[1].content[1].input',
      message: expect.stringContaining('is Infinity'),
    });
  });

  test('a trace record that breaks the trace format', async () => {
    const text = [
      '{"type":"ptc-trace","version":1}',
      '{"type":"program","id":"p","language":"typescript","source":"return 1"}',
      '{"type":"call","program":"p","id":1,"global":"tools","name":"f","args":{},"ok":true}',
    ].join('\n');
    expect(await refused('t.jsonl', text)).toMatchObject({
      line: 3,
      field: 'value',
      message: 'ok is true but "value" is missing',
    });
  });

  test('a trace without its header', async () => {
    const text = fs.readFileSync(path.join(FIXTURES, 'ptc-trace-multi.jsonl'), 'utf8').split('\n').slice(2).join('\n');
    expect(await refused('headless.jsonl', text, { format: 'ptc-trace' })).toMatchObject({
      line: 1,
      message: expect.stringContaining('the first record of a trace is the header'),
    });
  });
});

describe('hostile transcripts are refused before they cost much', () => {
  test('deeper than the nesting limit', async () => {
    const depth = IMPORT_LIMITS.maxDepth + 5;
    const text = `{"model":"m","messages":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    // the object is level 1, so the bracket that goes past the limit is the limit's own count of brackets in
    expect(await refused('deep.json', text)).toMatchObject({
      line: 1,
      column: '{"model":"m","messages":'.length + IMPORT_LIMITS.maxDepth,
      message: `invalid JSON: nested deeper than ${IMPORT_LIMITS.maxDepth} levels`,
    });
  });

  test('deep nesting inside a JSON string field is bounded too', async () => {
    const depth = IMPORT_LIMITS.maxDepth + 1;
    const args = `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const text = JSON.stringify([
      { type: 'program', call_id: 'c', code: 'text(1)' },
      { type: 'function_call', call_id: 'f', name: 'x', arguments: args, caller: { type: 'program', caller_id: 'c' } },
    ]);
    // JSON that is too deep is not valid JSON for the importer: kept as raw text and marked, not parsed
    const dir = fresh();
    const file = path.join(dir, 'deep-args.json');
    fs.writeFileSync(file, text);
    const outcome = await planImport({ files: [file], out: path.join(dir, 'o.ptcnb') });
    expect(outcome.ok).toBe(true);
    if (outcome.ok)
      expect(outcome.plan.notebookText).toContain('its arguments were not valid JSON; they are kept as the raw text');
  });

  test('larger than the size limit (checked before reading)', async () => {
    const dir = fresh();
    const file = path.join(dir, 'huge.json');
    fs.writeFileSync(file, '');
    fs.truncateSync(file, IMPORT_LIMITS.maxFileBytes + 1);
    const outcome = await planImport({ files: [file], labels: ['huge.json'], out: path.join(dir, 'o.ptcnb') });
    expect(outcome).toMatchObject({
      ok: false,
      problem: {
        file: 'huge.json',
        message: `the file is ${IMPORT_LIMITS.maxFileBytes + 1} bytes; transcripts up to ${IMPORT_LIMITS.maxFileBytes} bytes are imported`,
      },
    });
  });

  test('invalid UTF-8', async () => {
    const bytes = Buffer.concat([
      Buffer.from('{"model": "m",\n "messages": ["'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('"]}'),
    ]);
    expect(await refused('latin.json', bytes)).toMatchObject({
      line: 2,
      column: 16,
      message: expect.stringMatching(/^invalid UTF-8 at byte 30/),
    });
  });

  test('an empty file', async () => {
    expect(await refused('empty.jsonl', '\n\n')).toMatchObject({ line: 1, message: 'the file is empty' });
  });

  test('a missing file', async () => {
    const outcome = await planImport({ files: ['/nonexistent/transcript.json'], out: path.join(fresh(), 'o.ptcnb') });
    expect(outcome).toMatchObject({
      ok: false,
      problem: { file: '/nonexistent/transcript.json', message: 'cannot read the file (ENOENT)' },
    });
  });

  test('__proto__ and constructor keys stay data: nothing is polluted and the replay still matches', async () => {
    const source =
      "const r = await tools['__proto__']({ ['__proto__']: { polluted: true }, constructor: 1 });\nconsole.log(JSON.stringify(r));";
    const text = [
      '{"type":"ptc-trace","version":1}',
      '{"type":"bindings","namespaces":[{"global":"tools","functions":[{"name":"__proto__"},{"name":"constructor"}]}]}',
      `{"type":"program","id":"p","language":"typescript","source":${JSON.stringify(source)}}`,
      '{"type":"call","program":"p","id":1,"global":"tools","name":"__proto__","args":{"__proto__":{"polluted":true},"constructor":1},"ok":true,"value":{"__proto__":{"x":1}}}',
      '{"type":"result","program":"p","logs":["{\\"__proto__\\":{\\"x\\":1}}"]}',
    ].join('\n');
    const dir = fresh();
    const file = path.join(dir, 'proto.jsonl');
    fs.writeFileSync(file, text);
    const { importInto } = await import('./import-helpers.js');
    const { verifyImportedNotebook } = await import('../../../runtime/import/index.js');
    const { out } = await importInto(dir, [file]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(fs.readFileSync(path.join(dir, 'imported.bindings.mjs'), 'utf8')).toContain('JSON.parse(');
    const verified = await verifyImportedNotebook(out);
    if (!verified.ok) throw new Error(verified.message);
    expect(verified.cells[0]).toMatchObject({
      result: { logs: ['{"__proto__":{"x":1}}'] },
      comparison: { agrees: true },
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
