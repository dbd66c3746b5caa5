// The agent loop on a real session (real sandboxed processes, real bindings host) against the fake model server.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from '../../../examples/models/fake-model-server.mjs';
import {
  createSession,
  loopTraceLines,
  modelView,
  renderSdk,
  runAgentLoop,
  type Session,
} from '../../../runtime/index.js';
import type { LoopMode } from '../../../runtime/model/model-view.js';
import { anthropicClient } from '../../../runtime/model/anthropic-client.js';
import { openAiClient } from '../../../runtime/model/openai-client.js';
import { sessionPrograms } from '../../../runtime/model/session-programs.js';
import { type DescribedModule } from '../../../runtime/bindings-host/wire.js';
import { TraceRecordSchema } from '../../../runtime/import/trace-format.js';

const BINDINGS = path.resolve('examples/programs/tools.bindings.mjs');
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

const PARIS =
  "const city = await tools.lookupCity({ name: 'Paris' });\nconsole.log('found', city.name);\nreturn city.population;\n";

function loop(
  task: string,
  options: {
    mode?: LoopMode;
    maxTurns?: number;
    language?: 'typescript' | 'python';
    api?: 'openai' | 'anthropic';
  } = {},
) {
  const view = modelView({ module, language: options.language ?? 'typescript', task, mode: options.mode ?? 'code' });
  const client =
    options.api === 'anthropic'
      ? anthropicClient({ baseUrl: server.url, model: 'fake' })
      : openAiClient({ baseUrl: `${server.url}/v1`, model: 'fake' });
  return {
    view,
    outcome: runAgentLoop({
      client,
      view,
      maxTurns: options.maxTurns ?? 4,
      runProgram: sessionPrograms({ session, planFor: () => ({ mode: 'mock' }) }),
    }),
  };
}

describe('agent loop', () => {
  it('code mode: the run_code tool carries the SDK the model sees; the run’s text goes back; the answer ends the loop', async () => {
    server.setScript({
      rules: [
        {
          match: 'Paris code',
          replies: [{ run_code: { code: PARIS, description: 'Look up Paris' } }, { text: '2102650' }],
        },
      ],
    });
    const { view, outcome } = loop('Paris code');
    const done = await outcome;
    expect(done).toMatchObject({ status: 'answered', answer: '2102650' });
    expect(done.turns).toHaveLength(2);
    const step = done.turns[0]!.steps[0]!;
    expect(step.text).toBe('found Paris\n2102650');
    expect(step.run).toMatchObject({
      kind: 'result',
      result: { value: 2102650, calls: [{ name: 'lookupCity', ok: true }] },
    });
    // exactly the model view: ptc sdk's text as the tool description, the task as the first user message
    const first = server.requests[server.requests.length - 2]!;
    const tools = first.body.tools as { function: { name: string; description: string } }[];
    expect(tools.map((t) => t.function.name)).toEqual(['run_code']);
    expect(tools[0]!.function.description).toBe(renderSdk(module, 'typescript').text);
    expect((first.body.messages as { content: string }[])[1]!.content).toBe('Paris code');
    const second = server.requests[server.requests.length - 1]!;
    expect((second.body.messages as { role: string; content: string }[]).at(-1)).toMatchObject({
      role: 'tool',
      content: 'found Paris\n2102650',
    });
    expect(view.promptHash).toMatch(/^[0-9a-f]{16}$/);
    expect(done.usage.inputTokens).toBeGreaterThan(0);
  });

  it('a Python task runs Python; a failure goes back as the model would read it', async () => {
    const failing = "city = await tools.lookupCity({'name': 'Atlantis'})\nprint(city)\n";
    server.setScript({
      rules: [
        {
          match: 'Atlantis',
          replies: [{ run_code: { code: failing, description: 'Look up Atlantis' } }, { text: 'no such city' }],
        },
      ],
    });
    const done = await loop('Atlantis', { language: 'python', api: 'anthropic' }).outcome;
    expect(done.status).toBe('answered');
    const step = done.turns[0]!.steps[0]!;
    expect(step.isError).toBe(true);
    expect(step.text).toMatch(/^code run failed \(exception\): .*no such city: Atlantis/s);
    const last = server.requests[server.requests.length - 1]!;
    const content = (last.body.messages as { role: string; content: unknown }[]).at(-1)!.content as {
      type: string;
      is_error?: boolean;
    }[];
    expect(content[0]).toMatchObject({ type: 'tool_result', is_error: true });
  });

  it('direct mode: each binding is a tool; a tool call runs as a one-call program through the same bindings', async () => {
    server.setScript({
      rules: [
        {
          match: 'Paris direct',
          replies: [
            {
              calls: [
                { tool: 'tools_lookupCity', input: { name: 'Paris' } },
                { tool: 'tools_lookupCity', input: { name: 'Nowhere' } },
              ],
            },
            { text: 'done' },
          ],
        },
      ],
    });
    const { view, outcome } = loop('Paris direct', { mode: 'direct' });
    expect(view.tools.map((t) => t.name)).toEqual(['tools_add', 'tools_lookupCity', 'tools_now']);
    const done = await outcome;
    expect(done.status).toBe('answered');
    const [ok, failed] = done.turns[0]!.steps;
    expect(ok!.program).toMatchObject({
      id: 'turn-1-1',
      source: 'return await tools.lookupCity({"name":"Paris"});\n',
      tool: { name: 'lookupCity' },
    });
    expect(JSON.parse(ok!.text)).toEqual({ name: 'Paris', country: 'FR', population: 2102650 });
    expect(failed).toMatchObject({ isError: true, text: 'error: no such city: Nowhere' });
  });

  it('stops an endless loop of turns at the limit, with a clear message', async () => {
    server.setScript({
      rules: [{ match: 'forever', replies: [{ run_code: { code: 'return 1;', description: 'again' } }] }],
    });
    const done = await loop('forever', { maxTurns: 3 }).outcome;
    expect(done).toMatchObject({ status: 'turn-limit', message: 'stopped after 3 turns without a final answer' });
    expect(done.turns).toHaveLength(3);
  });

  it('refuses a program in the wrong language, an unknown tool and bad arguments without running anything', async () => {
    server.setScript({
      rules: [
        {
          match: 'refusals',
          replies: [
            {
              calls: [
                {
                  tool: 'run_code',
                  input: { code: "import asyncio\nprint(await tools.add({'a': 1, 'b': 2}))\n", description: 'py' },
                },
                { tool: 'search_web', input: {} },
                { tool: 'run_code', input: '{"code": 1' },
                { tool: 'run_code', input: { description: 'no code' } },
              ],
            },
            { text: 'giving up' },
          ],
        },
      ],
    });
    const done = await loop('refusals').outcome;
    expect(done.status).toBe('answered');
    expect(done.turns[0]!.steps).toEqual([]);
    expect(done.turns[0]!.refused.map((r) => r.message)).toEqual([
      'error: this program looks like Python, but run_code runs TypeScript programs',
      'error: there is no tool named "search_web"; the only tool is run_code',
      expect.stringContaining('error: the arguments are not valid JSON'),
      'error: run_code needs a non-empty string "code"',
    ]);
  });

  it('a reply with neither a tool call nor text, and a failing API, end the loop as model-failed', async () => {
    server.setScript({ rules: [{ match: 'empty reply', replies: [{ text: '' }] }] });
    expect(await loop('empty reply').outcome).toMatchObject({
      status: 'model-failed',
      failure: 'invalid-reply',
      message: expect.stringContaining('neither a tool call nor text'),
    });
    server.setScript({ rules: [] });
    expect(await loop('no rule').outcome).toMatchObject({
      status: 'model-failed',
      failure: 'http',
      message: expect.stringContaining('turn 1: the model API answered 400'),
    });
  });

  it('the loop as a trace: valid records, the task, each program with its calls and result, and the answer', async () => {
    server.setScript({
      rules: [
        {
          match: 'Paris trace',
          replies: [{ run_code: { code: PARIS, description: 'Look up Paris' } }, { text: 'It is 2102650.' }],
        },
      ],
    });
    const done = await loop('Paris trace').outcome;
    const records = loopTraceLines({ outcome: done, task: 'Paris trace', model: 'openai:fake', module }).map((line) =>
      TraceRecordSchema.parse(JSON.parse(line)),
    );
    expect(records.map((r) => r.type)).toEqual([
      'ptc-trace',
      'bindings',
      'message',
      'program',
      'call',
      'result',
      'message',
    ]);
    expect(records[2]).toEqual({ type: 'message', role: 'user', text: 'Paris trace' });
    expect(records[3]).toMatchObject({
      type: 'program',
      id: 'turn-1',
      source: PARIS,
      model: 'openai:fake',
      description: 'Look up Paris',
    });
    expect(records[6]).toEqual({ type: 'message', role: 'assistant', text: 'It is 2102650.' });
  });
});
