// Chat Completions tool-call histories, and the wrappers the same traffic reaches users in: OpenTelemetry GenAI spans
// (OTLP JSON, current conventions and OpenLLMetry's indexed attributes) and proxy logs (LiteLLM, Helicone).
// The traffic is real: pydantic-ai's code mode over OpenAI Chat Completions (examples/transcripts/SOURCES.md). No
// public OTLP export or proxy log of code-mode traffic was found, so those wrappers are built here, per their vendors'
// docs, around the real bodies, and must import to exactly what the recording itself imports to.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { type ImportPlan, importedMetaOf, planImport } from '../../../runtime/import/index.js';
import { allWritten, cellById, EXAMPLES, importInto, scratch } from './import-helpers.js';

const fresh = scratch('ptc-import-chat-');
const CASSETTE = path.join(EXAMPLES, 'openai-chat-code-mode.vcr.yaml');

type Body = Record<string, unknown> & {
  messages?: Message[];
  choices?: { message: Message }[];
  tools?: Tool[];
  model?: string;
  id?: string;
};
type Message = {
  role: string;
  content: string | null;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
};
type Tool = { type: string; function: { name: string; description?: string; parameters?: unknown } };

// the request and response bodies of the real recording, in order
function exchanges(): { request: Body; response: Body }[] {
  const doc = parseYaml(fs.readFileSync(CASSETTE, 'utf8')) as {
    interactions: { request: { parsed_body: Body }; response: { parsed_body: Body } }[];
  };
  return doc.interactions.map((i) => ({ request: i.request.parsed_body, response: i.response.parsed_body }));
}

const str = (value: string): { stringValue: string } => ({ stringValue: value });
const attr = (key: string, value: { stringValue: string } | { intValue: string }) => ({ key, value });

// gen_ai.input.messages / gen_ai.output.messages parts, as
// https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-spans/
function parts(message: Message): unknown {
  if (message.role === 'tool')
    return {
      role: 'tool',
      parts: [{ type: 'tool_call_response', id: message.tool_call_id, response: message.content }],
    };
  return {
    role: message.role,
    parts: [
      ...(message.content === null ? [] : [{ type: 'text', content: message.content }]),
      ...(message.tool_calls ?? []).map((c) => ({
        type: 'tool_call',
        id: c.id,
        name: c.function.name,
        arguments: JSON.parse(c.function.arguments) as unknown,
      })),
    ],
  };
}

function otlp(spans: unknown[]): string {
  return JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: [attr('service.name', str('agent'))] },
        scopeSpans: [{ scope: { name: 'test' }, spans }],
      },
    ],
  });
}

function semconvSpans(): unknown[] {
  return exchanges().map(({ request, response }, i) => ({
    traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
    spanId: `00f067aa0ba902b${i}`,
    name: `chat ${String(request.model)}`,
    startTimeUnixNano: `${1768864135 + i}000000000`,
    attributes: [
      attr('gen_ai.operation.name', str('chat')),
      attr('gen_ai.provider.name', str('openai')),
      attr('gen_ai.request.model', str(String(request.model))),
      attr('gen_ai.response.model', str(String(response.model))),
      attr('gen_ai.response.id', str(String(response.id))),
      attr(
        'gen_ai.tool.definitions',
        str(JSON.stringify((request.tools ?? []).map((t) => ({ type: 'function', ...t.function })))),
      ),
      attr('gen_ai.input.messages', str(JSON.stringify((request.messages ?? []).map(parts)))),
      attr('gen_ai.output.messages', str(JSON.stringify((response.choices ?? []).map((c) => parts(c.message))))),
    ],
  }));
}

// OpenLLMetry's flattened attributes: gen_ai.prompt.N.*, gen_ai.completion.N.*, llm.request.functions.N.*
function openLlmetrySpans(): unknown[] {
  return exchanges().map(({ request, response }, i) => {
    const attributes = [attr('gen_ai.system', str('openai')), attr('gen_ai.request.model', str(String(request.model)))];
    const flat = (prefix: string, m: Message): void => {
      attributes.push(attr(`${prefix}.role`, str(m.role)));
      if (m.content !== null) attributes.push(attr(`${prefix}.content`, str(m.content)));
      if (m.tool_call_id !== undefined) attributes.push(attr(`${prefix}.tool_call_id`, str(m.tool_call_id)));
      (m.tool_calls ?? []).forEach((c, j) => {
        attributes.push(attr(`${prefix}.tool_calls.${j}.id`, str(c.id)));
        attributes.push(attr(`${prefix}.tool_calls.${j}.name`, str(c.function.name)));
        attributes.push(attr(`${prefix}.tool_calls.${j}.arguments`, str(c.function.arguments)));
      });
    };
    (request.tools ?? []).forEach((t, j) => {
      attributes.push(attr(`llm.request.functions.${j}.name`, str(t.function.name)));
      if (t.function.description !== undefined)
        attributes.push(attr(`llm.request.functions.${j}.description`, str(t.function.description)));
      attributes.push(attr(`llm.request.functions.${j}.parameters`, str(JSON.stringify(t.function.parameters))));
    });
    (request.messages ?? []).forEach((m, j) => flat(`gen_ai.prompt.${j}`, m));
    (response.choices ?? []).forEach((c, j) => flat(`gen_ai.completion.${j}`, c.message));
    return {
      traceId: 'a'.repeat(32),
      spanId: `${i}`.padStart(16, '0'),
      name: 'openai.chat',
      startTimeUnixNano: 1768864135000000000 + i,
      attributes,
    };
  });
}

const KEY = 'sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD';

// HAR 1.2 entries with the request in postData.text and the reply in content.text; the key in a header
function har(entries: [string, string, string][]): string {
  return JSON.stringify({
    log: {
      version: '1.2',
      creator: { name: 'test', version: '1' },
      entries: entries.map(([request, response, mimeType], i) => ({
        startedDateTime: `2026-01-19T23:08:5${i}.000Z`,
        time: 900,
        request: {
          method: 'POST',
          url: 'https://api.example/v1',
          httpVersion: 'HTTP/1.1',
          headers: [
            { name: 'Authorization', value: `Bearer ${KEY}` },
            { name: 'content-type', value: 'application/json' },
          ],
          queryString: [],
          cookies: [],
          headersSize: -1,
          bodySize: request.length,
          postData: { mimeType: 'application/json', text: request },
        },
        response: {
          status: 200,
          statusText: 'OK',
          httpVersion: 'HTTP/1.1',
          headers: [{ name: 'content-type', value: mimeType }],
          cookies: [],
          content: { size: response.length, mimeType, text: response },
          redirectURL: '',
          headersSize: -1,
          bodySize: response.length,
        },
        cache: {},
        timings: { send: 0, wait: 900, receive: 0 },
      })),
    },
  });
}

// What matters of an import: each program's code, language, recorded answer and what the cell warns about.
function essence(plan: ImportPlan): unknown[] {
  return plan.cells.map((c) => ({ id: c.id, kind: c.kind, unreproducible: c.unreproducible }));
}

async function cellsOf(file: string) {
  const { plan, notebook } = await importInto(fresh(), [file]);
  const cells = notebook.cells.filter((c) => c.kind === 'code');
  return {
    plan,
    cells: cells.map((c) => ({
      source: c.source,
      language: c.kind === 'code' ? c.language : undefined,
      then: importedMetaOf(c.metadata)?.then,
    })),
  };
}

describe('Chat Completions tool-call histories', { timeout: 120_000 }, () => {
  test('real code-mode traffic (pydantic-ai run_code over Chat Completions): every program, its answer, and the calls it made marked as not recorded', async () => {
    const { plan, notebook } = await importInto(fresh(), [CASSETTE]);
    expect(plan.sources).toEqual([{ file: CASSETTE, format: 'openai-chat', shape: 'YAML, VCR cassette', programs: 4 }]);
    const first = cellById(notebook, 'call_kZbAWU3Wda57VwmNGaX9dq89');
    expect(first).toMatchObject({
      kind: 'code',
      language: 'python',
      source: "arbitrary_query('SELECT span_name, duration_ms FROM records ORDER BY start_timestamp DESC LIMIT 5', 0)",
    });
    const meta = importedMetaOf(first.metadata);
    expect(meta).toMatchObject({
      format: 'openai-chat',
      model: 'gpt-4o-2024-08-06',
      ids: { response: 'chatcmpl-CzsedMwYl5TGRESvye7y43pFJG2Q5' },
    });
    // the tool message is what the run gave back (here the failure the model was shown)
    expect(meta?.then?.modelText).toMatch(
      /^Error executing tool arbitrary_query: .*column \\'duration_ms\\' not found/,
    );
    expect(meta?.then?.calls).toEqual([]);
    // the functions the program called are named from the code tool's description; their answers were never recorded
    expect(meta?.unreproducible).toEqual([
      expect.stringMatching(/^it calls arbitrary_query, but a Chat Completions history records only the program/),
    ]);
    expect(importedMetaOf(cellById(notebook, 'call_dhj91eYWX1rWUD2S7sy9M0wB').metadata)?.then?.logs[0]).toBe(
      'CREATE TABLE records (',
    );
    // the resent history of the second request does not import the first two programs twice
    expect(plan.cells.filter((c) => c.kind === 'code').map((c) => c.id)).toEqual([
      'call_kZbAWU3Wda57VwmNGaX9dq89',
      'call_dhj91eYWX1rWUD2S7sy9M0wB',
      'call_9CyU1XEZisIWlqRqQZR9b8lU',
      'call_SyCvqNJDTOTBAqILcnlVRIpQ',
    ]);
  });

  test('a history as a bare message array, with the language the call names and a shell command kept but not run', async () => {
    const dir = fresh();
    const messages = [
      { role: 'user', content: 'sum 1..10, then list files' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'c1',
            type: 'function',
            function: {
              name: 'execute',
              arguments: JSON.stringify({ language: 'python', code: 'print(sum(range(11)))' }),
            },
          },
          {
            id: 'c2',
            type: 'function',
            function: { name: 'execute', arguments: JSON.stringify({ language: 'shell', code: 'ls' }) },
          },
          { id: 'c3', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: '55\n' },
      { role: 'tool', tool_call_id: 'c2', content: 'a.txt\n' },
    ];
    const file = path.join(dir, 'history.json');
    fs.writeFileSync(file, JSON.stringify(messages));
    const { plan, notebook } = await importInto(dir, [file]);
    expect(plan.sources[0]).toMatchObject({ format: 'openai-chat', programs: 2 });
    expect(cellById(notebook, 'c1')).toMatchObject({
      kind: 'code',
      language: 'python',
      source: 'print(sum(range(11)))',
    });
    expect(importedMetaOf(cellById(notebook, 'c1').metadata)?.then).toMatchObject({ compare: 'text', logs: ['55'] });
    // a shell command is shown, never run as Python or TypeScript
    expect(cellById(notebook, 'c2').kind).toBe('markdown');
  });

  test.each([
    [
      'a message without a role',
      [{ content: 'hi' }],
      /history\.json:1:\d+: \[0\]: not a Chat Completions request, response or message/,
    ],
    [
      'an assistant tool call without an id',
      [{ role: 'assistant', content: null, tool_calls: [{ function: { name: 'run_code' } }] }],
      /\[0\]\.tool_calls\[0\]\.id: missing required field/,
    ],
    [
      'tool_calls that are not a list',
      [{ role: 'assistant', tool_calls: 5, content: null }],
      /\[0\]\.tool_calls: expected an array, got the number 5/,
    ],
  ])('%s is one located message', async (_, messages, message) => {
    const dir = fresh();
    const file = path.join(dir, 'history.json');
    fs.writeFileSync(file, JSON.stringify(messages));
    const outcome = await planImport({ files: [file], out: path.join(dir, 'x.ptcnb'), format: 'openai-chat' });
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.message).toMatch(message);
  });
});

describe('OpenTelemetry GenAI spans and proxy logs carrying the same real traffic', { timeout: 120_000 }, () => {
  test.each([
    ['semconv.otlp.json', () => otlp(semconvSpans()), 'JSON, OpenTelemetry GenAI spans (OTLP JSON)'],
    ['openllmetry.otlp.json', () => otlp(openLlmetrySpans()), 'JSON, OpenTelemetry GenAI spans (OTLP JSON)'],
    // the collector's file exporter: one export request per line
    [
      'collector.jsonl',
      () =>
        semconvSpans()
          .map((span) => otlp([span]))
          .join('\n'),
      'JSON Lines, OpenTelemetry GenAI spans (OTLP JSON)',
    ],
    // LiteLLM's StandardLoggingPayload (https://docs.litellm.ai/docs/proxy/logging_spec): messages beside response
    [
      'litellm.jsonl',
      () =>
        exchanges()
          .map(({ request, response }, i) =>
            JSON.stringify({
              id: `log-${i}`,
              call_type: 'acompletion',
              model: request.model,
              messages: request.messages,
              model_parameters: { tools: request.tools },
              tools: request.tools,
              response,
            }),
          )
          .join('\n'),
      'JSON Lines, request/response log',
    ],
    // HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/), as browsers' and proxies' "save all as HAR" write it
    [
      'traffic.har',
      () =>
        har(
          exchanges().map(({ request, response }) => [
            JSON.stringify(request),
            JSON.stringify(response),
            'application/json',
          ]),
        ),
      'JSON, HAR',
    ],
    // Helicone's request records: request_body and response_body
    [
      'helicone.jsonl',
      () =>
        exchanges()
          .map(({ request, response }, i) =>
            JSON.stringify({ request_id: `r${i}`, provider: 'OPENAI', request_body: request, response_body: response }),
          )
          .join('\n'),
      'JSON Lines, request/response log',
    ],
  ])('%s imports to what the recording imports to, detected without --format', async (name, build, shape) => {
    const dir = fresh();
    const file = path.join(dir, name);
    fs.writeFileSync(file, build());
    const expected = await cellsOf(CASSETTE);
    const got = await cellsOf(file);
    expect(got.plan.sources).toEqual([{ file, format: 'openai-chat', shape, programs: 4 }]);
    expect(essence(got.plan)).toEqual(essence(expected.plan));
    expect(got.cells.map((c) => [c.source, c.language, c.then?.modelText])).toEqual(
      expected.cells.map((c) => [c.source, c.language, c.then?.modelText]),
    );
  });

  test('a HAR whose reply is a real captured event stream imports as the raw stream does, and the header key reaches no file', async () => {
    const dir = fresh();
    const sse = fs.readFileSync(path.join(EXAMPLES, 'anthropic-code-execution-stream.sse'), 'utf8');
    const request = {
      model: 'claude-sonnet-4-20250514',
      stream: true,
      messages: [{ role: 'user', content: 'calculate' }],
    };
    const file = path.join(dir, 'stream.har');
    fs.writeFileSync(file, har([[JSON.stringify(request), sse, 'text/event-stream']]));
    const { plan } = await importInto(dir, [file]);
    expect(plan.sources[0]).toMatchObject({
      format: 'anthropic',
      shape: 'JSON, HAR, streamed replies reassembled',
      programs: 1,
    });
    const expected = await cellsOf(path.join(EXAMPLES, 'anthropic-code-execution-stream.sse'));
    const got = await cellsOf(file);
    // the same cells, but for the origin line naming the file the program came from
    const unplaced = (cells: typeof got.cells) =>
      cells.map((c) => ({ ...c, source: c.source.replace(/\(\S+ line \d+\) ──/, '(…) ──') }));
    expect(unplaced(got.cells)).toEqual(unplaced(expected.cells));
    for (const written of allWritten(dir).filter((w) => w.file !== file)) expect(written.text).not.toContain(KEY);
  });

  test('a span whose gen_ai.input.messages is not JSON is named by file, line and attribute', async () => {
    const dir = fresh();
    const file = path.join(dir, 'bad.otlp.json');
    const span = {
      traceId: 't',
      spanId: 's',
      name: 'chat',
      attributes: [attr('gen_ai.input.messages', str('[{"role": "user", '))],
    };
    fs.writeFileSync(file, otlp([span]));
    const outcome = await planImport({ files: [file], out: path.join(dir, 'x.ptcnb') });
    expect(outcome.ok).toBe(false);
    if (!outcome.ok)
      expect(outcome.message).toMatch(
        /bad\.otlp\.json:1:\d+: resourceSpans\[0\]\.scopeSpans\[0\]\.spans\[0\]\.attributes\[0\]\.value\.stringValue: is not valid JSON text/,
      );
  });
});
