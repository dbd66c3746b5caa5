import * as vscode from 'vscode';
import {
  argumentsObject,
  REPLY_LIMITS,
  type ChatMessage,
  type ChatOutcome,
  type ChatRequest,
  type ModelClient,
  type ToolCall,
} from '../../runtime/index.js';
import { errorMessage } from '../../runtime/index.js';

// A model from the editor's Language Model API (vscode.lm: Copilot and other providers, with their consent flow).
// The API has no system role, so the system text opens the first user message.
export function lmClient(model: vscode.LanguageModelChat): ModelClient {
  return {
    label: `vscode-lm:${model.vendor}/${model.id}`,
    async complete(request: ChatRequest): Promise<ChatOutcome> {
      const started = performance.now();
      const source = new vscode.CancellationTokenSource();
      const cancel = (): void => source.cancel();
      request.signal?.addEventListener('abort', cancel, { once: true });
      try {
        const messages = toLm(request);
        const response = await model.sendRequest(
          messages,
          {
            justification: vscode.l10n.t(
              'PTC Playground sends the task and the notebook bindings\u2019 SDK to write a program.',
            ),
            tools: request.tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })),
          },
          source.token,
        );
        let text = '';
        const toolCalls: ToolCall[] = [];
        for await (const part of response.stream) {
          if (part instanceof vscode.LanguageModelTextPart) {
            text += part.value;
            if (text.length > REPLY_LIMITS.textChars)
              return {
                ok: false,
                kind: 'invalid-reply',
                message: `the reply's text is longer than ${REPLY_LIMITS.textChars} characters`,
              };
          } else if (part instanceof vscode.LanguageModelToolCallPart) {
            if (toolCalls.length >= REPLY_LIMITS.toolCalls)
              return {
                ok: false,
                kind: 'invalid-reply',
                message: `the reply has more than ${REPLY_LIMITS.toolCalls} tool calls`,
              };
            const args = argumentsObject(part.input);
            const id = String(part.callId).slice(0, REPLY_LIMITS.idChars);
            toolCalls.push(
              args.ok
                ? { id, name: part.name, input: args.value }
                : { id, name: part.name, input: undefined, inputProblem: args.problem },
            );
          }
          // the editor's models stream text in parts and tool calls whole: each part is shown as it comes
          request.onProgress?.({
            text,
            toolCalls: toolCalls.map((c) => ({ name: c.name, input: JSON.stringify(c.input ?? {}) })),
          });
        }
        const inputTokens = await countTokens(model, messages, source.token);
        const outputTokens =
          text === ''
            ? 0
            : await model.countTokens(text, source.token).then(
                (n) => n,
                () => 0,
              );
        return {
          ok: true,
          reply: {
            text,
            toolCalls,
            usage: { inputTokens, outputTokens },
            stopReason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
            latencyMs: performance.now() - started,
            model: model.id,
          },
        };
      } catch (error) {
        if (request.signal?.aborted === true || error instanceof vscode.CancellationError)
          return { ok: false, kind: 'aborted', message: 'the model request was cancelled' };
        if (error instanceof vscode.LanguageModelError)
          return { ok: false, kind: 'http', message: `${model.name}: ${error.code}: ${error.message}` };
        return {
          ok: false,
          kind: 'network',
          message: `${model.name}: ${errorMessage(error)}`,
        };
      } finally {
        request.signal?.removeEventListener('abort', cancel);
        source.dispose();
      }
    },
  };
}

function toLm(request: ChatRequest): vscode.LanguageModelChatMessage[] {
  const out: vscode.LanguageModelChatMessage[] = [];
  request.messages.forEach((message: ChatMessage, index) => {
    if (message.role === 'user')
      out.push(
        vscode.LanguageModelChatMessage.User(index === 0 ? `${request.system}\n\n${message.text}` : message.text),
      );
    else if (message.role === 'assistant')
      out.push(
        vscode.LanguageModelChatMessage.Assistant([
          ...(message.text === '' ? [] : [new vscode.LanguageModelTextPart(message.text)]),
          ...message.toolCalls.map((c) => new vscode.LanguageModelToolCallPart(c.id, c.name, c.input ?? {})),
        ]),
      );
    else
      out.push(
        vscode.LanguageModelChatMessage.User(
          message.results.map(
            (r) => new vscode.LanguageModelToolResultPart(r.callId, [new vscode.LanguageModelTextPart(r.text)]),
          ),
        ),
      );
  });
  return out;
}

async function countTokens(
  model: vscode.LanguageModelChat,
  messages: vscode.LanguageModelChatMessage[],
  token: vscode.CancellationToken,
): Promise<number> {
  let total = 0;
  for (const message of messages)
    total += await model.countTokens(message, token).then(
      (n) => n,
      () => 0,
    );
  return total;
}
