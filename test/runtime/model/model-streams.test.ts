// Streamed replies: the three HTTP clients read real recorded streams (committed with their provenance in
// test/fixtures/model-streams/SOURCES.md) served by a local server in small arbitrary pieces, and the fake model
// server's streams; what has arrived is reported as it comes, and an abandoned request is aborted on the wire.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  startFakeModelServer,
  type FakeModelServer,
  type FakeReply,
} from '../../../examples/models/fake-model-server.mjs';
import { modelView, runAgentLoop, type ChatRequest, type ModelClient } from '../../../runtime/index.js';
import type { ChatProgress } from '../../../runtime/model/chat-types.js';
import { anthropicClient } from '../../../runtime/model/anthropic-client.js';
import { openAiClient } from '../../../runtime/model/openai-client.js';
import { openAiResponsesClient } from '../../../runtime/model/openai-responses-client.js';
import { sseEvents, SseDecoder } from '../../../runtime/model/sse-decoder.js';
import { partialStringField } from '../../../runtime/model/stream-replies.js';

const FIXTURES = path.join(import.meta.dirname, '..', '..', 'fixtures', 'model-streams');
const FAST = { retries: 1, maxRetryWaitMs: 1_000, requestTimeoutMs: 20_000 };
const KEY = 'sk-test-0123456789abcdefghijklmnop';

interface Cassette {
  interactions: { request: { parsed_body: Record<string, unknown> }; response: { body: { string: string } } }[];
}
const bodiesOf = (file: string): string[] =>
  (parse(readFileSync(path.join(FIXTURES, file), 'utf8')) as Cassette).interactions.map((i) => i.response.body.string);

// Serves recorded stream bodies in order, in 7-byte pieces with a turn of the event loop between them, so every
// line and every multi-byte character can be cut anywhere.
async function replayServer(
  bodies: string[],
): Promise<{ url: string; sent: Record<string, unknown>[]; close(): Promise<void> }> {
  const sent: Record<string, unknown>[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      sent.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>);
      const body = Buffer.from(bodies[sent.length - 1] ?? '', 'utf8');
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
      const write = (at: number): void => {
        if (at >= body.length) return void res.end();
        res.write(body.subarray(at, at + 7));
        setImmediate(() => write(at + 7));
      };
      write(0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    sent,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const request = (progress: ChatProgress[], extra: Partial<ChatRequest> = {}): ChatRequest => ({
  system: 'SYSTEM',
  messages: [{ role: 'user', text: 'task' }],
  tools: [{ name: 'run_code', description: 'Run a program.', inputSchema: { type: 'object' } }],
  maxTokens: 256,
  onProgress: (p) => progress.push(structuredClone(p)),
  ...extra,
});

describe('real recorded streams', () => {
  it('Chat Completions: a tool call whose arguments arrive in pieces, then the text answer; usage from the last chunk', async () => {
    const server = await replayServer(bodiesOf('openai-chat-tool-call-stream.vcr.yaml'));
    try {
      const client = openAiClient({ baseUrl: server.url, model: 'gpt-4o-mini', apiKey: KEY, limits: FAST });
      const progress: ChatProgress[] = [];
      const first = await client.complete(request(progress));
      expect(first).toMatchObject({
        ok: true,
        reply: {
          text: '',
          toolCalls: [{ id: 'call_ZR5UUuTt3pf61kjwAJIYdVMj', name: 'get_capital', input: { country: 'UK' } }],
          usage: { inputTokens: 53, outputTokens: 15, cachedInputTokens: 0 },
          stopReason: 'tool_calls',
          model: 'gpt-4o-mini-2024-07-18',
        },
      });
      expect(server.sent[0]).toMatchObject({ stream: true, stream_options: { include_usage: true } });
      expect(progress.at(-1)?.toolCalls).toEqual([{ name: 'get_capital', input: '{"country":"UK"}' }]);
      const second = await client.complete(request([]));
      expect(second).toMatchObject({
        ok: true,
        reply: { text: 'The capital of the UK is London.', toolCalls: [], usage: { inputTokens: 78, outputTokens: 9 } },
      });
    } finally {
      await server.close();
    }
  });

  it('Responses: function_call arguments deltas and response.completed', async () => {
    const server = await replayServer(bodiesOf('openai-responses-function-call-stream.vcr.yaml'));
    try {
      const client = openAiResponsesClient({ baseUrl: server.url, model: 'gpt-4o', apiKey: KEY, limits: FAST });
      const progress: ChatProgress[] = [];
      const outcome = await client.complete(request(progress));
      expect(outcome).toMatchObject({
        ok: true,
        reply: {
          toolCalls: [{ id: 'call_kL0PCQV7M2WMoVX8V8OtYSAL', name: 'get_capital', input: { country: 'France' } }],
          usage: { inputTokens: 255, outputTokens: 16 },
          stopReason: 'function_call',
          model: 'gpt-4o-2024-08-06',
        },
      });
      expect(server.sent[0]).toMatchObject({ stream: true });
      expect(progress.at(-1)?.toolCalls).toEqual([{ name: 'get_capital', input: '{"country":"France"}' }]);
    } finally {
      await server.close();
    }
  });

  it('Messages: text, a server tool and a client tool_use whose input_json_delta pieces add up; then the answer', async () => {
    const server = await replayServer(bodiesOf('anthropic-tool-use-stream.vcr.yaml'));
    try {
      const client = anthropicClient({ baseUrl: server.url, model: 'claude-sonnet-4-6', apiKey: KEY, limits: FAST });
      const progress: ChatProgress[] = [];
      const outcome = await client.complete(request(progress));
      expect(outcome).toMatchObject({
        ok: true,
        reply: {
          text:
            'Let me search for a tool that can provide current exchange rate information.' +
            'I found the right tool! Let me fetch the current USD to EUR exchange rate for you.',
          toolCalls: [
            {
              id: 'toolu_01EFn5wTNBYA8Reni8rbmnHT',
              name: 'get_exchange_rate',
              input: { from_currency: 'USD', to_currency: 'EUR' },
            },
          ],
          stopReason: 'tool_use',
          model: 'claude-sonnet-4-6',
        },
      });
      if (outcome.ok) expect(outcome.reply.usage.inputTokens).toBeGreaterThanOrEqual(1591);
      expect(server.sent[0]).toMatchObject({ stream: true });
      expect(
        progress.some((p) => p.toolCalls.some((c) => c.name === 'get_exchange_rate' && c.input.startsWith('{"from_'))),
      ).toBe(true);
      const answer = await client.complete(request([]));
      expect(answer).toMatchObject({ ok: true, reply: { stopReason: 'end_turn', toolCalls: [] } });
      if (answer.ok) expect(answer.reply.text).toMatch(/^The current exchange rate is \*\*1 USD = 0\.92 EUR\*\*/);
    } finally {
      await server.close();
    }
  });
});

describe('the fake model server streams what it would send whole', () => {
  let server: FakeModelServer;
  beforeAll(async () => {
    server = await startFakeModelServer();
  });
  afterAll(async () => {
    await server.close();
  });
  const CODE = 'const rows = await tools.search({ q: "a \\"quoted\\" word" });\nreturn rows.length;';
  const clients = (): Record<string, ModelClient> => ({
    openai: openAiClient({ baseUrl: `${server.url}/v1`, model: 'm-1', apiKey: KEY, limits: FAST }),
    responses: openAiResponsesClient({ baseUrl: `${server.url}/v1`, model: 'm-1', apiKey: KEY, limits: FAST }),
    anthropic: anthropicClient({ baseUrl: server.url, model: 'm-1', apiKey: KEY, limits: FAST }),
  });

  it.each(['openai', 'responses', 'anthropic'])(
    '%s: the streamed reply equals the whole one, and the program grows as it arrives',
    async (api) => {
      const replies: FakeReply[] = [{ text: 'I will count the rows.', run_code: { code: CODE, description: 'count' } }];
      server.setScript({ rules: [{ match: `stream ${api}`, replies }] });
      const client = clients()[api] as ModelClient;
      const whole = await client.complete(
        request([], { messages: [{ role: 'user', text: `stream ${api}` }], onProgress: undefined }),
      );
      const progress: ChatProgress[] = [];
      const streamed = await client.complete(
        request(progress, { messages: [{ role: 'user', text: `stream ${api}` }] }),
      );
      expect(server.requests.at(-1)?.body.stream).toBe(true);
      expect(server.requests.at(-2)?.body.stream).toBeUndefined();
      expect(whole.ok && streamed.ok).toBe(true);
      if (!whole.ok || !streamed.ok) return;
      const shape = (r: typeof whole.reply) => ({
        text: r.text,
        calls: r.toolCalls.map((c) => [c.name, c.input]),
        // the fake counts input tokens from the request text, which `stream: true` lengthens
        outputTokens: r.usage.outputTokens,
        stop: r.stopReason,
      });
      expect(shape(streamed.reply)).toEqual(shape(whole.reply));
      expect(streamed.reply.toolCalls[0]?.input).toEqual({ code: CODE, description: 'count' });
      const codes = progress.map((p) => partialStringField(p.toolCalls[0]?.input ?? '', 'code') ?? '');
      expect(codes.at(-1)).toBe(CODE);
      for (const code of codes) expect(CODE.startsWith(code)).toBe(true);
    },
  );

  it('the agent loop streams each turn and reads the run_code program as it arrives', async () => {
    server.setScript({ rules: [{ match: 'loop stream', replies: [{ run_code: { code: CODE } }] }] });
    const seen: { turn: number; program: string | undefined }[] = [];
    const outcome = await runAgentLoop({
      client: clients().anthropic as ModelClient,
      view: modelView({ module: { namespaces: {} }, language: 'typescript', task: 'loop stream', mode: 'code' }),
      maxTurns: 1,
      runProgram: async () => ({ kind: 'not-run', message: 'not run here' }),
      onProgress: (turn, p) => seen.push({ turn, program: p.toolCalls[0]?.program }),
    });
    expect(outcome.turns).toHaveLength(1);
    expect(seen.at(-1)).toEqual({ turn: 1, program: CODE });
    expect(server.requests.at(-1)?.body.stream).toBe(true);
  });

  it.each(['openai', 'responses', 'anthropic'])(
    '%s: aborting mid-stream ends the request as aborted and the server sees it go',
    async (api) => {
      server.setScript({
        rules: [
          { match: `abort ${api}`, replies: [{ chunkDelayMs: 200, run_code: { code: 'return "x".repeat(10);' } }] },
        ],
      });
      const controller = new AbortController();
      const progress: ChatProgress[] = [];
      const outcome = await (clients()[api] as ModelClient).complete(
        request(progress, {
          messages: [{ role: 'user', text: `abort ${api}` }],
          signal: controller.signal,
          onProgress: (p) => {
            progress.push(p);
            if (progress.length === 1) controller.abort();
          },
        }),
      );
      expect(outcome).toMatchObject({ ok: false, kind: 'aborted' });
      const sent = server.requests.at(-1)!;
      await expect.poll(() => sent.aborted, { timeout: 10_000 }).toBe(true);
    },
  );
});

describe('stream faults', () => {
  async function rawServer(body: string): Promise<{ url: string; close(): Promise<void> }> {
    const server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
  }

  it('an error event mid-stream ends the request with its kind; data that is not JSON is an invalid reply', async () => {
    const overloaded = await rawServer(
      'event: message_start\ndata: {"type":"message_start","message":{"id":"m","type":"message","role":"assistant","content":[],"model":"x","usage":{"input_tokens":1,"output_tokens":1}}}\n\n' +
        'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n',
    );
    const garbled = await rawServer(
      'data: {"id":"c","choices":[{"index":0,"delta":{"content":"hi"}}]}\n\ndata: {not json\n\n',
    );
    try {
      const a = await anthropicClient({ baseUrl: overloaded.url, model: 'x', apiKey: KEY, limits: FAST }).complete(
        request([]),
      );
      expect(a).toMatchObject({ ok: false, kind: 'rate-limited' });
      if (!a.ok) expect(a.message).toMatch(/overloaded_error.*Overloaded/);
      const o = await openAiClient({ baseUrl: garbled.url, model: 'x', apiKey: KEY, limits: FAST }).complete(
        request([]),
      );
      expect(o).toMatchObject({ ok: false, kind: 'invalid-reply' });
    } finally {
      await overloaded.close();
      await garbled.close();
    }
  });
});

describe('pieces of streams', () => {
  it('the SSE decoder gives the same events however the text is cut, CRLF split across chunks included', () => {
    const text = 'event: a\r\ndata: {"x":1}\r\n\r\n: comment\r\ndata: line1\r\ndata: line2\r\n\r\ndata: [DONE]\r\n\r\n';
    const whole = sseEvents(text);
    expect(whole.map((e) => [e.event, e.data])).toEqual([
      ['a', '{"x":1}'],
      [undefined, 'line1\nline2'],
      [undefined, '[DONE]'],
    ]);
    for (let size = 1; size < 8; size++) {
      const decoder = new SseDecoder();
      const events = [];
      for (let i = 0; i < text.length; i += size) events.push(...decoder.push(text.slice(i, i + size)));
      events.push(...decoder.end());
      expect(events).toEqual(whole);
    }
  });

  it('a string field of JSON cut anywhere: what has arrived, escapes decoded, nested keys of the same name ignored', () => {
    const json = JSON.stringify({ description: 'the "code" field', nested: { code: 'no' }, code: 'a\n"b"\\c\u00e9' });
    let last = '';
    for (let end = 0; end <= json.length; end++) {
      const value = partialStringField(json.slice(0, end), 'code');
      if (value === undefined) continue;
      expect('a\n"b"\\c\u00e9'.startsWith(value)).toBe(true);
      expect(value.length).toBeGreaterThanOrEqual(last.length);
      last = value;
    }
    expect(last).toBe('a\n"b"\\c\u00e9');
    expect(partialStringField('{"code": 12}', 'code')).toBeUndefined();
  });
});
