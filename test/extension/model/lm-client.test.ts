// The vscode.lm adapter against a scripted LanguageModelChat: VS Code's test API offers no way to register a language
// model provider in the real-VS-Code suite (that needs a proposed API), so the adapter's translation both ways, its
// bounds and its cancellation are checked here with the API's classes rebuilt as the documented shapes.
import { describe, expect, test, vi } from 'vitest';

vi.mock('vscode', () => {
  class LanguageModelTextPart {
    constructor(readonly value: string) {}
  }
  class LanguageModelToolCallPart {
    constructor(
      readonly callId: string,
      readonly name: string,
      readonly input: unknown,
    ) {}
  }
  class LanguageModelToolResultPart {
    constructor(
      readonly callId: string,
      readonly content: unknown[],
    ) {}
  }
  class LanguageModelChatMessage {
    constructor(
      readonly role: 'user' | 'assistant',
      readonly content: unknown,
    ) {}
    static User(content: unknown): LanguageModelChatMessage {
      return new LanguageModelChatMessage('user', content);
    }
    static Assistant(content: unknown): LanguageModelChatMessage {
      return new LanguageModelChatMessage('assistant', content);
    }
  }
  class CancellationTokenSource {
    readonly token = { isCancellationRequested: false };
    cancel(): void {
      this.token.isCancellationRequested = true;
    }
    dispose(): void {}
  }
  class CancellationError extends Error {}
  class LanguageModelError extends Error {
    constructor(
      message: string,
      readonly code: string,
    ) {
      super(message);
    }
  }
  return {
    LanguageModelTextPart,
    LanguageModelToolCallPart,
    LanguageModelToolResultPart,
    LanguageModelChatMessage,
    CancellationTokenSource,
    CancellationError,
    LanguageModelError,
    l10n: { t: (text: string) => text },
  };
});

const vscode = await import('vscode');
const { lmClient } = await import('../../../extension/model/lm-client.js');
const { REPLY_LIMITS } = await import('../../../runtime/index.js');

type Sent = { messages: unknown[]; options: { tools?: unknown[] }; token: { isCancellationRequested: boolean } };

// A LanguageModelChat that answers with `parts` (or throws `error`) and records what it was sent.
function scriptedModel(parts: unknown[], options: { error?: Error; waitForCancel?: boolean } = {}) {
  const sent: Sent[] = [];
  const model = {
    id: 'fake-1',
    vendor: 'test',
    name: 'Fake Model',
    family: 'fake',
    version: '1',
    maxInputTokens: 1000,
    countTokens: async (text: unknown) => (typeof text === 'string' ? text.length : 7),
    sendRequest: async (messages: unknown[], opts: Sent['options'], token: Sent['token']) => {
      sent.push({ messages, options: opts, token });
      if (options.error !== undefined) throw options.error;
      return {
        stream: (async function* () {
          for (const part of parts) yield part;
          if (options.waitForCancel === true) {
            while (!token.isCancellationRequested) await new Promise((resolve) => setTimeout(resolve, 5));
            throw new vscode.CancellationError();
          }
        })(),
      };
    },
  };
  return { model: model as unknown as Parameters<typeof lmClient>[0], sent };
}

const request = {
  system: 'You write programs.',
  tools: [{ name: 'run_code', description: 'Runs a program.', inputSchema: { type: 'object' } }],
  maxTokens: 100,
  messages: [
    { role: 'user' as const, text: 'Sum the orders.' },
    {
      role: 'assistant' as const,
      text: 'Running it.',
      toolCalls: [{ id: 'c1', name: 'run_code', input: { code: 'return 1' } }],
    },
    { role: 'tool' as const, results: [{ callId: 'c1', text: 'value: 1', isError: false }] },
  ],
};

describe('vscode.lm adapter', () => {
  test('sends the system text in the first user message, the tool calls and their results; reads text and tool calls back', async () => {
    const { model, sent } = scriptedModel([
      new vscode.LanguageModelTextPart('Here is '),
      new vscode.LanguageModelTextPart('the program.'),
      new vscode.LanguageModelToolCallPart('c2', 'run_code', { code: 'return 2' }),
    ]);
    const outcome = await lmClient(model).complete(request);
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.reply).toMatchObject({
      text: 'Here is the program.',
      toolCalls: [{ id: 'c2', name: 'run_code', input: { code: 'return 2' } }],
      stopReason: 'tool_calls',
      model: 'fake-1',
      usage: { outputTokens: 'Here is the program.'.length },
    });
    const [first, second, third] = sent[0]?.messages as { role: string; content: unknown }[];
    expect(first).toMatchObject({ role: 'user', content: 'You write programs.\n\nSum the orders.' });
    expect(second?.role).toBe('assistant');
    expect(second?.content).toEqual([
      new vscode.LanguageModelTextPart('Running it.'),
      new vscode.LanguageModelToolCallPart('c1', 'run_code', { code: 'return 1' }),
    ]);
    expect(third?.content).toEqual([
      new vscode.LanguageModelToolResultPart('c1', [new vscode.LanguageModelTextPart('value: 1')]),
    ]);
    expect(sent[0]?.options.tools).toEqual([
      { name: 'run_code', description: 'Runs a program.', inputSchema: { type: 'object' } },
    ]);
  });

  test('a tool call whose input is not an object is kept with its problem, for the loop to send back', async () => {
    const { model } = scriptedModel([
      new vscode.LanguageModelToolCallPart('c3', 'run_code', 'not an object' as unknown as object),
    ]);
    const outcome = await lmClient(model).complete(request);
    expect(outcome.ok && outcome.reply.toolCalls[0]).toMatchObject({
      id: 'c3',
      input: undefined,
      inputProblem: expect.any(String),
    });
  });

  test('a reply past the bounds is an invalid-reply failure, never kept whole', async () => {
    const long = scriptedModel([new vscode.LanguageModelTextPart('x'.repeat(REPLY_LIMITS.textChars + 1))]);
    expect(await lmClient(long.model).complete(request)).toMatchObject({ ok: false, kind: 'invalid-reply' });
    const calls = Array.from(
      { length: REPLY_LIMITS.toolCalls + 1 },
      (_, i) => new vscode.LanguageModelToolCallPart(`c${i}`, 'run_code', {}),
    );
    expect(await lmClient(scriptedModel(calls).model).complete(request)).toMatchObject({
      ok: false,
      kind: 'invalid-reply',
    });
  });

  test("the provider's errors and a cancelled request are failures the loop can report", async () => {
    const refused = scriptedModel([], {
      error: new (vscode.LanguageModelError as unknown as new (message: string, code: string) => Error)(
        'no consent',
        'NoPermissions',
      ),
    });
    expect(await lmClient(refused.model).complete(request)).toMatchObject({
      ok: false,
      kind: 'http',
      message: 'Fake Model: NoPermissions: no consent',
    });
    const slow = scriptedModel([new vscode.LanguageModelTextPart('thinking')], { waitForCancel: true });
    const controller = new AbortController();
    const pending = lmClient(slow.model).complete({ ...request, signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    expect(await pending).toMatchObject({ ok: false, kind: 'aborted' });
  });
});
