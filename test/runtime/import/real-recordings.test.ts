// `ptc import` and offline replay over real recorded traffic (examples/transcripts/SOURCES.md names where each file
// comes from): VCR cassettes with streamed and non-streamed Anthropic replies, the raw SSE body and its events as JSON
// Lines, server tools called from code, a recorded failure, and programs that share a container's state.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { type CellVerdict, importedMetaOf, planImport, verifyImportedNotebook } from '../../../runtime/import/index.js';
import type { CodeCell } from '../../../runtime/notebook/schema.js';
import { allWritten, cellById, EXAMPLES, importInto, scratch } from './import-helpers.js';

const fresh = scratch('ptc-import-real-');
const file = (name: string): string => path.join(EXAMPLES, name);

async function verified(out: string): Promise<CellVerdict[]> {
  const outcome = await verifyImportedNotebook(out);
  if (!outcome.ok) throw new Error(outcome.message);
  return outcome.cells;
}

describe('real recordings import without --format and replay offline', { timeout: 180_000 }, () => {
  test.each([
    ['anthropic-code-execution-stream.vcr.yaml', 'YAML, VCR cassette, streamed replies reassembled'],
    ['anthropic-code-execution-stream.sse', 'server-sent events, streamed replies reassembled'],
    ['anthropic-code-execution-stream.events.jsonl', 'JSON Lines, streamed replies reassembled'],
  ])('a streamed code execution (%s) is reassembled from its events and replays as recorded', async (name, shape) => {
    const { out, plan, notebook } = await importInto(fresh(), [file(name)]);
    expect(plan.sources).toEqual([{ file: file(name), format: 'anthropic', shape, programs: 1 }]);
    const cell = cellById(notebook, 'srvtoolu_01MKwyo39KHRDr9Ubff5vWtG') as CodeCell;
    // the program text arrived in input_json_delta fragments
    expect(cell.source).toContain(
      'step1 = 6544 * 65464  # Multiplication first\nprint(f"Step 1 - Multiplication: 6544 * 65464 = {step1}")',
    );
    expect(importedMetaOf(cell.metadata)).toMatchObject({
      model: 'claude-sonnet-4-20250514',
      ids: { message: 'msg_01TaPV5KLA8MsCPDuJNKPLF4' },
    });
    expect((await verified(out)).map((v) => [v.cellId, v.comparison?.agrees])).toEqual([
      ['srvtoolu_01MKwyo39KHRDr9Ubff5vWtG', true],
    ]);
  });

  test('a non-streamed VCR cassette of two requests: both programs, each in its container, replay as recorded', async () => {
    const { out, plan } = await importInto(fresh(), [file('anthropic-code-execution.vcr.yaml')]);
    expect(plan.sources[0]).toMatchObject({ format: 'anthropic', shape: 'YAML, VCR cassette', programs: 2 });
    expect((await verified(out)).every((v) => v.comparison?.agrees === true)).toBe(true);
  });

  test('web_fetch called from code is a recorded call; a recorded TypeError replays as that failure; container state is rebuilt', async () => {
    const { dir, out, notebook } = await importInto(fresh(), [file('anthropic-web-fetch-from-code.vcr.yaml')]);
    const first = cellById(notebook, 'srvtoolu_01AyD129t4BNGn7tvyqs8U5a') as CodeCell;
    // the server tool is bound in the cell (it was a NameError) and its recorded answer is in the cassette
    expect(first.source).toMatch(/^web_fetch = __ptc_tool\(/m);
    const cassette = JSON.parse(
      fs.readFileSync(
        path.join(dir, '.ptc', 'cassettes', 'imported', 'srvtoolu_01AyD129t4BNGn7tvyqs8U5a.json'),
        'utf8',
      ),
    ) as {
      calls: { name: string; args: unknown; ok: boolean; value: { type: string; url: string } }[];
    };
    expect(cassette.calls).toMatchObject([
      { name: 'web_fetch', args: { url: 'https://ai.pydantic.dev' }, ok: true, value: { type: 'web_fetch_result' } },
    ]);
    // the fourth program reads `parsed`, which the first left in the container: the cell runs the first one ahead of it
    const fourth = cellById(notebook, 'srvtoolu_019svQeudg5ktwdgsezxsPuS') as CodeCell;
    expect(importedMetaOf(fourth.metadata)?.notes).toContainEqual(
      expect.stringContaining('uses `parsed` from earlier programs of container container_011CbNtk54HX1gjV328ZQ4ar'),
    );
    const verdicts = await verified(out);
    const agrees = Object.fromEntries(verdicts.map((v) => [v.cellId, v.comparison?.agrees]));
    expect(agrees).toMatchObject({
      srvtoolu_01AyD129t4BNGn7tvyqs8U5a: true,
      // recorded: TypeError (re.search on a dict); replayed: the same failure
      srvtoolu_01HTkmTHY4UDxwmNGMjRjezp: true,
      srvtoolu_019svQeudg5ktwdgsezxsPuS: true,
    });
    // the third prints the recorded dict, whose keys the recording itself stored sorted: an honest difference
    expect(verdicts.find((v) => v.cellId === 'srvtoolu_018pXykGbk3xAVWWy8Hbcbex')?.comparison?.differences[0]).toMatch(
      /^stdout differs at line 2/,
    );
    expect(JSON.stringify(allWritten(dir))).not.toContain('NameError');
  });

  test('a program that needs state only a failed program left is marked, not run against missing variables', async () => {
    const dir = fresh();
    const text = fs
      .readFileSync(file('anthropic-web-fetch-from-code.vcr.yaml'), 'utf8')
      // the first program fails instead: `parsed` can no longer be rebuilt for the later ones
      .replace(
        "          return_code: 0\n          stderr: ''\n          stdout: |\n            None",
        "          return_code: 1\n          stderr: 'boom'\n          stdout: |\n            None",
      );
    expect(text).toContain("stderr: 'boom'");
    const copy = path.join(dir, 'failed-first.yaml');
    fs.writeFileSync(copy, text);
    const outcome = await planImport({ files: [copy], out: path.join(dir, 'x.ptcnb') });
    if (!outcome.ok) throw new Error(outcome.message);
    const fourth = outcome.plan.cells.find((c) => c.id === 'srvtoolu_019svQeudg5ktwdgsezxsPuS');
    expect(fourth).toMatchObject({
      kind: 'markdown',
      unreproducible: [expect.stringContaining('uses `parsed` left in container')],
    });
  });
});

describe('real OpenAI Responses recordings', { timeout: 180_000 }, () => {
  test('code interpreter runs streamed as response.* events: reassembled, and the container state rebuilt for later runs', async () => {
    const { out, plan, notebook } = await importInto(fresh(), [file('openai-code-interpreter-stream.vcr.yaml')]);
    expect(plan.sources[0]).toMatchObject({
      format: 'openai',
      shape: 'YAML, VCR cassette, streamed replies reassembled',
      programs: 3,
    });
    const second = cellById(notebook, 'ci_68c350a41d2c819ebb23bdfb9ff322770f2d670b80edc507') as CodeCell;
    expect(second.source).toContain('n = pow(123456, 123)');
    expect(second.source.endsWith('str(n)[:100], str(n)[-100:]')).toBe(true);
    // the recording kept no outputs: each run is compared for failing or not, and says so
    expect((await verified(out)).map((v) => v.comparison?.agrees)).toEqual([true, true, true]);
  });

  test('a non-streamed code interpreter run: its logs are the recorded output, and a final expression’s value is a stated difference', async () => {
    const { out, notebook } = await importInto(fresh(), [file('openai-code-interpreter.vcr.yaml')]);
    const cell = cellById(notebook, 'ci_68cdba5af39881a393a01eebb253854e09b7445677780c8f') as CodeCell;
    expect(importedMetaOf(cell.metadata)?.then).toMatchObject({ compare: 'stdout', logs: ['-428330955.97745'] });
    expect(importedMetaOf(cell.metadata)?.notes).toContainEqual(
      expect.stringContaining('its last line is an expression'),
    );
    expect((await verified(out))[0]?.comparison?.differences).toEqual([
      'stdout differs at line 1: "-428330955.97745" then, "" now',
    ]);
  });
});

describe('semantics real files exposed', { timeout: 180_000 }, () => {
  test('a function_call_output that carries caller answers the program’s call; the replay serves it instead of waiting', async () => {
    const dir = fresh();
    const caller = { type: 'program', caller_id: 'call_prog_1' };
    const request = {
      model: 'gpt-test',
      tools: [
        {
          type: 'function',
          name: 'get_inventory',
          parameters: { type: 'object', properties: { sku: { type: 'string' } } },
          allowed_callers: ['programmatic'],
        },
      ],
      input: [
        { role: 'user', content: 'stock of sku_1?' },
        {
          type: 'program',
          id: 'prog_1',
          call_id: 'call_prog_1',
          code: "const s = await tools.get_inventory({ sku: 'sku_1' });\ntext(String(s.available_units));",
        },
        {
          type: 'function_call',
          id: 'fc_1',
          call_id: 'call_inv_1',
          name: 'get_inventory',
          arguments: '{"sku":"sku_1"}',
          caller,
        },
        { type: 'function_call_output', call_id: 'call_inv_1', output: '{"sku":"sku_1","available_units":42}', caller },
      ],
    };
    const response = {
      object: 'response',
      id: 'resp_2',
      output: [{ type: 'program_output', id: 'po_1', call_id: 'call_prog_1', result: '42', status: 'completed' }],
    };
    const transcript = path.join(dir, 'exchange.json');
    fs.writeFileSync(transcript, JSON.stringify([{ request: { body: request }, response: { body: response } }]));
    const { out, notebook } = await importInto(dir, [transcript]);
    const meta = importedMetaOf(cellById(notebook, 'call_prog_1').metadata);
    expect(meta?.unreproducible).toBeUndefined();
    expect(meta?.then?.calls).toMatchObject([{ name: 'get_inventory', ok: true }]);
    const verdicts = await verified(out);
    expect(verdicts[0]?.comparison).toEqual({ agrees: true, differences: [] });
  });

  test('one dict argument reaches the binding as the arguments object, not as its first parameter', async () => {
    const dir = fresh();
    const code =
      'w = await get_weather({"city": "Paris"})\nprint(w["temp"])\nv = await get_weather("Lyon")\nprint(v["temp"])';
    const transcript = {
      model: 'claude-test',
      tools: [
        { type: 'code_execution_20250825', name: 'code_execution' },
        {
          name: 'get_weather',
          input_schema: { type: 'object', properties: { city: { type: 'string' } } },
          allowed_callers: ['code_execution_20250825'],
        },
      ],
      messages: [
        { role: 'user', content: 'weather?' },
        {
          role: 'assistant',
          content: [
            { type: 'server_tool_use', id: 'srvtoolu_1', name: 'code_execution', input: { code } },
            {
              type: 'tool_use',
              id: 'toolu_1',
              name: 'get_weather',
              input: { city: 'Paris' },
              caller: { type: 'code_execution_20250825', tool_id: 'srvtoolu_1' },
            },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '{"temp": 21}' }] },
        {
          role: 'assistant',
          content: [
            {
              type: 'tool_use',
              id: 'toolu_2',
              name: 'get_weather',
              input: { city: 'Lyon' },
              caller: { type: 'code_execution_20250825', tool_id: 'srvtoolu_1' },
            },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_2', content: '{"temp": 19}' }] },
        {
          role: 'assistant',
          content: [
            {
              type: 'code_execution_tool_result',
              tool_use_id: 'srvtoolu_1',
              content: { type: 'code_execution_result', stdout: '21\n19\n', stderr: '', return_code: 0 },
            },
          ],
        },
      ],
    };
    const file = path.join(dir, 'weather.json');
    fs.writeFileSync(file, JSON.stringify(transcript));
    const { out } = await importInto(dir, [file]);
    expect((await verified(out))[0]?.comparison).toEqual({ agrees: true, differences: [] });
  });
});

test('a secret in a recorded header never reaches the notebook or a cassette, even where a program printed it', async () => {
  const dir = fresh();
  const key = 'sk-ant-api03-recorded-header-key-0123456789';
  const text = fs
    .readFileSync(file('anthropic-code-execution.vcr.yaml'), 'utf8')
    .replace('    headers:\n      accept:', `    headers:\n      x-api-key:\n      - ${key}\n      accept:`)
    .replace('3 * 12390 = 37170\n', `3 * 12390 = 37170 ${key}\n`);
  expect(text).toContain(`x-api-key:\n      - ${key}`);
  const copy = path.join(dir, 'with-key.yaml');
  fs.writeFileSync(copy, text);
  const { dir: out } = await importInto(fresh(), [copy]);
  const written = allWritten(out);
  expect(written.length).toBeGreaterThan(2);
  for (const { file: f, text: t } of written) expect(t, f).not.toContain(key);
  expect(written.some((w) => w.text.includes('[redacted]'))).toBe(true);
});
