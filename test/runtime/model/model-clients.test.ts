// The HTTP model clients against a local fake server that speaks the real Chat Completions and Messages APIs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startFakeModelServer,
  type FakeModelServer,
  type FakeScript,
} from '../../../examples/models/fake-model-server.mjs';
import { type ChatRequest, type ModelClient } from '../../../runtime/index.js';
import { anthropicClient } from '../../../runtime/model/anthropic-client.js';
import { openAiClient } from '../../../runtime/model/openai-client.js';
import { openAiResponsesClient } from '../../../runtime/model/openai-responses-client.js';

const KEY = 'sk-test-0123456789abcdefghijklmnop';
let server: FakeModelServer;
beforeAll(async () => {
  server = await startFakeModelServer();
});
afterAll(async () => {
  await server.close();
});

const FAST = { retries: 2, maxRetryWaitMs: 2_000, requestTimeoutMs: 10_000 };
const clients = (): Record<'openai' | 'anthropic', ModelClient> => ({
  openai: openAiClient({ baseUrl: `${server.url}/v1`, model: 'm-1', apiKey: KEY, limits: FAST }),
  anthropic: anthropicClient({ baseUrl: server.url, model: 'm-1', apiKey: KEY, limits: FAST }),
});
const TOOL = {
  name: 'run_code',
  description: 'Run a program.',
  inputSchema: { type: 'object', properties: { code: { type: 'string' } } },
};
const request = (task: string, extra: Partial<ChatRequest> = {}): ChatRequest => ({
  system: 'SYSTEM TEXT',
  messages: [{ role: 'user', text: task }],
  tools: [TOOL],
  maxTokens: 256,
  ...extra,
});
const script = (s: FakeScript): void => server.setScript(s);
const lastRequest = () => server.requests[server.requests.length - 1]!;

describe.each(['openai', 'anthropic'] as const)('%s client', (api) => {
  it('sends the system text, the task and the tools in the API’s own shape, and reads a tool call', async () => {
    script({ rules: [{ match: 'shape task', replies: [{ run_code: { code: 'return 1;', description: 'one' } }] }] });
    const outcome = await clients()[api].complete(request('shape task'));
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.reply.toolCalls).toEqual([
      { id: expect.any(String), name: 'run_code', input: { code: 'return 1;', description: 'one' } },
    ]);
    expect(outcome.reply.usage.inputTokens).toBeGreaterThan(0);
    const sent = lastRequest();
    expect(sent.api).toBe(api);
    if (api === 'openai') {
      expect(sent.url).toBe('/v1/chat/completions');
      expect(sent.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(sent.body.messages).toEqual([
        { role: 'system', content: 'SYSTEM TEXT' },
        { role: 'user', content: 'shape task' },
      ]);
      expect(sent.body.tools).toEqual([
        {
          type: 'function',
          function: { name: 'run_code', description: 'Run a program.', parameters: TOOL.inputSchema },
        },
      ]);
      // max_tokens is what reasoning models refuse
      expect(sent.body.max_completion_tokens).toBe(256);
      expect(sent.body).not.toHaveProperty('max_tokens');
    } else {
      expect(sent.url).toBe('/v1/messages');
      expect(sent.headers['x-api-key']).toBe(KEY);
      expect(sent.headers['anthropic-version']).toBe('2023-06-01');
      // one prompt-cache breakpoint after the tools and the system text, which every turn repeats
      expect(sent.body.system).toEqual([{ type: 'text', text: 'SYSTEM TEXT', cache_control: { type: 'ephemeral' } }]);
      expect(sent.body.messages).toEqual([{ role: 'user', content: 'shape task' }]);
      expect(sent.body.tools).toEqual([
        {
          name: 'run_code',
          description: 'Run a program.',
          input_schema: TOOL.inputSchema,
          cache_control: { type: 'ephemeral' },
        },
      ]);
      expect(sent.body.max_tokens).toBe(256);
    }
  });

  it('sends tool calls and their results back in the API’s own shape', async () => {
    script({ rules: [{ match: 'history task', replies: [{ text: 'unused' }, { text: 'the answer' }] }] });
    const outcome = await clients()[api].complete(
      request('history task', {
        messages: [
          { role: 'user', text: 'history task' },
          {
            role: 'assistant',
            text: 'let me look',
            toolCalls: [{ id: 'c1', name: 'run_code', input: { code: 'return 2;' } }],
          },
          { role: 'tool', results: [{ callId: 'c1', text: 'code run failed (exception): boom', isError: true }] },
        ],
      }),
    );
    expect(outcome).toMatchObject({ ok: true, reply: { text: 'the answer', toolCalls: [] } });
    const messages = lastRequest().body.messages;
    if (api === 'openai')
      expect(messages).toEqual([
        { role: 'system', content: 'SYSTEM TEXT' },
        { role: 'user', content: 'history task' },
        {
          role: 'assistant',
          content: 'let me look',
          tool_calls: [
            { id: 'c1', type: 'function', function: { name: 'run_code', arguments: '{"code":"return 2;"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'c1', content: 'code run failed (exception): boom' },
      ]);
    else
      expect(messages).toEqual([
        { role: 'user', content: 'history task' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'let me look' },
            { type: 'tool_use', id: 'c1', name: 'run_code', input: { code: 'return 2;' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'c1', content: 'code run failed (exception): boom', is_error: true },
          ],
        },
      ]);
  });

  it('retries 429 and 5xx as retry-after says, then answers', async () => {
    script({
      rules: [
        {
          match: 'retry task',
          replies: [
            {
              status: 429,
              retryAfter: 0,
              times: 1,
              then: { status: 503, retryAfter: 0, times: 1, then: { text: 'done' } },
            },
          ],
        },
      ],
    });
    const before = server.requests.length;
    const outcome = await clients()[api].complete(request('retry task'));
    expect(outcome).toMatchObject({ ok: true, reply: { text: 'done' } });
    expect(server.requests.length - before).toBe(3);
  });

  it('gives up after the retries: a 5xx as unavailable, 429 and 529 as rate-limited; at once when retry-after asks too long', async () => {
    script({ rules: [{ match: 'always 500', replies: [{ status: 500, retryAfter: 0 }] }] });
    const before = server.requests.length;
    expect(await clients()[api].complete(request('always 500'))).toMatchObject({
      ok: false,
      kind: 'unavailable',
      status: 500,
      message: expect.stringContaining('after 3 attempts'),
    });
    expect(server.requests.length - before).toBe(3);
    for (const status of [429, 529]) {
      script({ rules: [{ match: `always ${status}`, replies: [{ status, retryAfter: 0 }] }] });
      expect(await clients()[api].complete(request(`always ${status}`))).toMatchObject({
        ok: false,
        kind: 'rate-limited',
        status,
      });
    }
    script({ rules: [{ match: 'long wait', replies: [{ status: 429, retryAfter: 3600 }] }] });
    const outcome = await clients()[api].complete(request('long wait'));
    expect(outcome).toMatchObject({
      ok: false,
      kind: 'rate-limited',
      status: 429,
      message: expect.stringContaining('asked to wait 3600 s'),
    });
  });

  it('fails a reply that is not JSON, or not the API’s shape, as invalid-reply', async () => {
    script({ rules: [{ match: 'not json', replies: [{ raw: '<html>oops</html>' }] }] });
    expect(await clients()[api].complete(request('not json'))).toMatchObject({
      ok: false,
      kind: 'invalid-reply',
      message: expect.stringContaining('not JSON'),
    });
    script({ rules: [{ match: 'bad shape', replies: [{ raw: JSON.stringify({ choices: 'x', content: 'y' }) }] }] });
    expect(await clients()[api].complete(request('bad shape'))).toMatchObject({
      ok: false,
      kind: 'invalid-reply',
      message: expect.stringContaining('expected shape'),
    });
  });

  it('refuses a reply larger than its bound without buffering it', async () => {
    script({ rules: [{ match: 'huge', replies: [{ raw: `{"x":"${'a'.repeat(300_000)}"}` }] }] });
    const small =
      api === 'openai'
        ? openAiClient({ baseUrl: `${server.url}/v1`, model: 'm', limits: { maxReplyBytes: 100_000 } })
        : anthropicClient({ baseUrl: server.url, model: 'm', limits: { maxReplyBytes: 100_000 } });
    expect(await small.complete(request('huge'))).toMatchObject({
      ok: false,
      kind: 'invalid-reply',
      message: expect.stringContaining('larger than 100000 bytes'),
    });
  });

  it('is cancelled by its signal while the server is slow', async () => {
    script({ rules: [{ match: 'slow', replies: [{ delayMs: 60_000, then: { text: 'late' } }] }] });
    const controller = new AbortController();
    const pending = clients()[api].complete(request('slow', { signal: controller.signal }));
    setTimeout(() => controller.abort(), 200);
    expect(await pending).toMatchObject({ ok: false, kind: 'aborted' });
  });

  it('ends a slow attempt at its deadline as a network failure', async () => {
    script({ rules: [{ match: 'stall', replies: [{ delayMs: 60_000, then: { text: 'late' } }] }] });
    const impatient =
      api === 'openai'
        ? openAiClient({ baseUrl: `${server.url}/v1`, model: 'm', limits: { requestTimeoutMs: 300 } })
        : anthropicClient({ baseUrl: server.url, model: 'm', limits: { requestTimeoutMs: 300 } });
    expect(await impatient.complete(request('stall'))).toMatchObject({
      ok: false,
      kind: 'network',
      message: 'the model API did not answer within 300 ms',
    });
  });

  it('never repeats the key: an error message that echoes it is scrubbed, and 401 says where keys come from', async () => {
    script({ rules: [{ match: 'echo key', replies: [{ raw: 'x' }] }] });
    const echo = await startFakeModelServer();
    try {
      // a server that answers 401 quoting the key it was sent
      const { createServer } = await import('node:http');
      const quoting = createServer((req, res) => {
        const key = String(req.headers['x-api-key'] ?? req.headers.authorization ?? '');
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `invalid key ${key}` } }));
      });
      await new Promise<void>((resolve) => quoting.listen(0, '127.0.0.1', resolve));
      const port = (quoting.address() as { port: number }).port;
      const client =
        api === 'openai'
          ? openAiClient({ baseUrl: `http://127.0.0.1:${port}/v1`, model: 'm', apiKey: KEY })
          : anthropicClient({ baseUrl: `http://127.0.0.1:${port}`, model: 'm', apiKey: KEY });
      const outcome = await client.complete(request('echo key'));
      quoting.close();
      expect(outcome).toMatchObject({ ok: false, kind: 'http', status: 401 });
      expect(JSON.stringify(outcome)).not.toContain(KEY);
      expect(JSON.stringify(outcome)).toContain('[redacted]');
      expect(JSON.stringify(outcome)).toContain('secret storage');
    } finally {
      await echo.close();
    }
  });

  it('names an unreachable endpoint', async () => {
    const client =
      api === 'openai'
        ? openAiClient({ baseUrl: 'http://127.0.0.1:9/v1', model: 'm' })
        : anthropicClient({ baseUrl: 'http://127.0.0.1:9', model: 'm' });
    expect(await client.complete(request('x'))).toMatchObject({
      ok: false,
      kind: 'network',
      message: expect.stringContaining('cannot reach the model API at http://127.0.0.1:9'),
    });
  });

  it('keeps a tool call whose arguments are not a JSON object, with the reason', async () => {
    script({
      rules: [
        {
          match: 'bad args',
          replies: [{ calls: [{ tool: 'run_code', input: api === 'openai' ? '{"code": ' : 'just text' }] }],
        },
      ],
    });
    const outcome = await clients()[api].complete(request('bad args'));
    expect(outcome).toMatchObject({
      ok: true,
      reply: {
        toolCalls: [
          {
            name: 'run_code',
            input: undefined,
            inputProblem: expect.stringMatching(/not valid JSON|not a JSON object/),
          },
        ],
      },
    });
  });
});

// Every client ends in one check of the reply (runtime/model/reply-limits.ts checkedReply): the same bound, the same
// words, and the latency measured, whichever API answered.
describe.each(['openai', 'openai-responses', 'anthropic'] as const)(
  '%s client, the reply check all clients share',
  (api) => {
    const client = (): ModelClient =>
      api === 'openai-responses'
        ? openAiResponsesClient({ baseUrl: `${server.url}/v1`, model: 'm-1', apiKey: KEY, limits: FAST })
        : clients()[api];

    it('answers a text at its bound, timed', async () => {
      script({ rules: [{ match: 'at the bound', replies: [{ text: 'é'.repeat(1_000_000) }] }] });
      const outcome = await client().complete(request('at the bound'));
      expect(outcome.ok).toBe(true);
      if (!outcome.ok) return;
      expect(outcome.reply.text).toHaveLength(1_000_000);
      expect(outcome.reply.latencyMs).toBeGreaterThan(0);
    });

    it('fails a text one character past its bound as invalid-reply', async () => {
      script({ rules: [{ match: 'past the bound', replies: [{ text: 'é'.repeat(1_000_001) }] }] });
      expect(await client().complete(request('past the bound'))).toEqual({
        ok: false,
        kind: 'invalid-reply',
        message: "the reply's text is longer than 1000000 characters",
      });
    });
  },
);
