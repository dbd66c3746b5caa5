// Models as they are today, against the fake server speaking the real APIs: the Responses API, reasoning models that
// refuse max_tokens, reasoning items and thinking blocks that must come back unchanged, model options and cached
// tokens.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from '../../../examples/models/fake-model-server.mjs';
import {
  createSession,
  endpointClient,
  modelView,
  parseModelSpec,
  runAgentLoop,
  type ChatRequest,
  type ModelClient,
  type ModelOptions,
  type Session,
} from '../../../runtime/index.js';
import { anthropicClient } from '../../../runtime/model/anthropic-client.js';
import { openAiClient } from '../../../runtime/model/openai-client.js';
import { openAiResponsesClient } from '../../../runtime/model/openai-responses-client.js';
import { sessionPrograms } from '../../../runtime/model/session-programs.js';
import { type DescribedModule } from '../../../runtime/bindings-host/wire.js';

const BINDINGS = path.resolve('examples/programs/tools.bindings.mjs');
const KEY = 'sk-responses-test-0123456789abcdef';
const PARIS = "const city = await tools.lookupCity({ name: 'Paris' });\nreturn city.population;\n";
let server: FakeModelServer;
let session: Session;
let module: DescribedModule;
beforeAll(async () => {
  server = await startFakeModelServer();
  session = createSession({ bindingsPath: BINDINGS });
  const described = await session.describe();
  if (!described.ok) throw new Error(described.message);
  module = described.module;
});
afterAll(async () => {
  await Promise.all([server.close(), session.dispose()]);
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
  maxTokens: 300,
  ...extra,
});
const lastRequest = () => server.requests[server.requests.length - 1]!;
const requestsSince = (n: number) => server.requests.slice(n);

function loop(client: ModelClient, task: string, modelOptions?: ModelOptions) {
  const view = modelView({ module, language: 'typescript', task, mode: 'code' });
  return runAgentLoop({
    client,
    view,
    maxTurns: 4,
    ...(modelOptions === undefined ? {} : { modelOptions }),
    runProgram: sessionPrograms({ session, planFor: () => ({ mode: 'mock' }) }),
  });
}

describe('OpenAI Responses API client', () => {
  it('sends instructions, input items, function tools and max_output_tokens statelessly, and reads function calls', async () => {
    server.setScript({ rules: [{ match: 'responses shape', replies: [{ run_code: { code: 'return 1;' } }] }] });
    const client = openAiResponsesClient({ baseUrl: `${server.url}/v1`, model: 'gpt-4.1', apiKey: KEY });
    const outcome = await client.complete(request('responses shape'));
    expect(outcome).toMatchObject({
      ok: true,
      reply: {
        text: '',
        toolCalls: [{ id: expect.stringMatching(/^call_/), name: 'run_code', input: { code: 'return 1;' } }],
      },
    });
    const sent = lastRequest();
    expect(sent.url).toBe('/v1/responses');
    expect(sent.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(sent.body).toEqual({
      model: 'gpt-4.1',
      instructions: 'SYSTEM TEXT',
      input: [{ role: 'user', content: 'responses shape' }],
      max_output_tokens: 300,
      store: false,
      tools: [{ type: 'function', name: 'run_code', description: 'Run a program.', parameters: TOOL.inputSchema }],
    });
    expect(client.label).toBe('openai-responses:gpt-4.1');
  });

  it('is chosen by the openai-responses provider, with the OpenAI key and base URL', () => {
    const parsed = parseModelSpec('openai-responses:o4-mini', { PTC_OPENAI_BASE_URL: 'http://127.0.0.1:1/v1' });
    expect(parsed).toEqual({
      ok: true,
      spec: { provider: 'openai-responses', model: 'o4-mini', baseUrl: 'http://127.0.0.1:1/v1' },
    });
    if (parsed.ok) expect(endpointClient(parsed.spec, KEY).label).toBe('openai-responses:o4-mini');
    expect(parseModelSpec('gemini:x')).toMatchObject({
      ok: false,
      message: expect.stringContaining('openai, openai-responses, anthropic'),
    });
  });

  it('a reasoning model in the loop: effort and encrypted reasoning go out, each turn’s reasoning item comes back unchanged', async () => {
    server.setScript({
      rules: [
        {
          match: 'reason Paris',
          replies: [
            { thinking: true, run_code: { code: PARIS } },
            { thinking: true, text: '2102650' },
          ],
        },
      ],
    });
    const before = server.requests.length;
    const client = openAiResponsesClient({ baseUrl: `${server.url}/v1`, model: 'o4-mini', apiKey: KEY });
    const done = await loop(client, 'reason Paris', { reasoningEffort: 'high', maxTokens: 5000 });
    expect(done).toMatchObject({ status: 'answered', answer: '2102650' });
    const [first, second] = requestsSince(before);
    expect(first!.body).toMatchObject({
      reasoning: { effort: 'high' },
      include: ['reasoning.encrypted_content'],
      max_output_tokens: 5000,
    });
    const input = second!.body.input as {
      type?: string;
      encrypted_content?: string;
      call_id?: string;
      output?: string;
    }[];
    expect(input.map((i) => i.type ?? 'message')).toEqual([
      'message',
      'reasoning',
      'function_call',
      'function_call_output',
    ]);
    expect(input[1]!.encrypted_content).toMatch(/^enc_/);
    expect(input[3]).toMatchObject({ call_id: input[2]!.call_id, output: '2102650' });
  });

  it('without reasoning asked for, a reasoning item (not resendable when nothing is stored) is left out of the next turn', async () => {
    server.setScript({
      rules: [{ match: 'plain reason', replies: [{ thinking: true, run_code: { code: PARIS } }, { text: 'done' }] }],
    });
    const client = openAiResponsesClient({ baseUrl: `${server.url}/v1`, model: 'o4-mini', apiKey: KEY });
    expect(await loop(client, 'plain reason')).toMatchObject({ status: 'answered', answer: 'done' });
    expect((lastRequest().body.input as { type?: string }[]).some((i) => i.type === 'reasoning')).toBe(false);
  });

  it('an incomplete response says why in its stop reason; a failed one is an invalid reply', async () => {
    const client = openAiResponsesClient({ baseUrl: `${server.url}/v1`, model: 'gpt-4.1', apiKey: KEY });
    server.setScript({
      rules: [
        {
          match: 'cut short',
          replies: [
            {
              raw: JSON.stringify({
                object: 'response',
                status: 'incomplete',
                incomplete_details: { reason: 'max_output_tokens' },
                output: [],
              }),
            },
          ],
        },
        {
          match: 'fails',
          replies: [
            {
              raw: JSON.stringify({
                object: 'response',
                status: 'failed',
                error: { message: 'server_error' },
                output: [],
              }),
            },
          ],
        },
      ],
    });
    expect(await client.complete(request('cut short'))).toMatchObject({
      ok: true,
      reply: { stopReason: 'incomplete: max_output_tokens' },
    });
    expect(await client.complete(request('fails'))).toMatchObject({
      ok: false,
      kind: 'invalid-reply',
      message: expect.stringContaining('server_error'),
    });
  });
});

describe('Chat Completions with reasoning models', () => {
  it('evaluates a reasoning model that refuses max_tokens: the limit goes as max_completion_tokens, effort as reasoning_effort', async () => {
    server.setScript({ rules: [{ match: 'o3 Paris', replies: [{ run_code: { code: PARIS } }, { text: '2102650' }] }] });
    const before = server.requests.length;
    const client = openAiClient({ baseUrl: `${server.url}/v1`, model: 'o3-mini', apiKey: KEY });
    const done = await loop(client, 'o3 Paris', { reasoningEffort: 'low', seed: 7, toolChoice: 'auto' });
    expect(done).toMatchObject({ status: 'answered', answer: '2102650' });
    for (const sent of requestsSince(before)) {
      expect(sent.body).toMatchObject({
        max_completion_tokens: 4096,
        reasoning_effort: 'low',
        seed: 7,
        tool_choice: 'auto',
      });
      expect(sent.body).not.toHaveProperty('max_tokens');
    }
  });

  it('reads cached prompt tokens', async () => {
    const usage = { prompt_tokens: 1200, completion_tokens: 3, prompt_tokens_details: { cached_tokens: 1024 } };
    server.setScript({
      rules: [
        {
          match: 'cached',
          replies: [
            { raw: JSON.stringify({ choices: [{ message: { content: 'x' }, finish_reason: 'stop' }], usage }) },
          ],
        },
      ],
    });
    const client = openAiClient({ baseUrl: `${server.url}/v1`, model: 'gpt-4.1', apiKey: KEY });
    expect(await client.complete(request('cached'))).toMatchObject({
      ok: true,
      reply: { usage: { inputTokens: 1200, cachedInputTokens: 1024 } },
    });
  });
});

describe('Anthropic extended thinking and prompt caching', () => {
  it('sends the thinking budget and passes each thinking block back unchanged with its tool results', async () => {
    server.setScript({
      rules: [
        {
          match: 'think Paris',
          replies: [
            { thinking: true, run_code: { code: PARIS } },
            { thinking: true, text: '2102650' },
          ],
        },
      ],
    });
    const before = server.requests.length;
    const client = anthropicClient({ baseUrl: server.url, model: 'claude-sonnet-4-5', apiKey: KEY });
    const done = await loop(client, 'think Paris', { thinkingBudget: 2048, maxTokens: 8000 });
    expect(done).toMatchObject({ status: 'answered', answer: '2102650' });
    const [first, second] = requestsSince(before);
    expect(first!.body).toMatchObject({ thinking: { type: 'enabled', budget_tokens: 2048 }, max_tokens: 8000 });
    const assistant = (
      second!.body.messages as { role: string; content: { type: string; signature?: string }[] }[]
    )[1]!;
    expect(assistant.role).toBe('assistant');
    expect(assistant.content[0]).toEqual({
      type: 'thinking',
      thinking: 'Let me think.',
      signature: expect.stringMatching(/^sig_/),
    });
    expect(assistant.content[1]).toMatchObject({ type: 'tool_use', name: 'run_code' });
  });

  it('counts cache reads and writes as input, and reports the cached part', async () => {
    const usage = {
      input_tokens: 10,
      output_tokens: 5,
      cache_read_input_tokens: 2000,
      cache_creation_input_tokens: 300,
    };
    server.setScript({
      rules: [
        {
          match: 'cache hit',
          replies: [{ raw: JSON.stringify({ type: 'message', content: [{ type: 'text', text: 'ok' }], usage }) }],
        },
      ],
    });
    const client = anthropicClient({ baseUrl: server.url, model: 'claude-sonnet-4-5', apiKey: KEY });
    expect(await client.complete(request('cache hit'))).toMatchObject({
      ok: true,
      reply: { usage: { inputTokens: 2310, outputTokens: 5, cachedInputTokens: 2000 } },
    });
  });

  it('maps tool choice and temperature to the Messages API', async () => {
    server.setScript({ rules: [{ match: 'choice', replies: [{ run_code: { code: 'return 1;' } }] }] });
    const client = anthropicClient({ baseUrl: server.url, model: 'claude-sonnet-4-5', apiKey: KEY });
    await client.complete(request('choice', { options: { toolChoice: 'required', temperature: 0 } }));
    expect(lastRequest().body).toMatchObject({ tool_choice: { type: 'any' }, temperature: 0 });
  });
});
