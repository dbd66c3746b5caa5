import { z } from 'zod';
import type { ChatMessage, ChatOutcome, ChatRequest, ModelClient, ToolCall } from './chat-types.js';
import { DEFAULT_HTTP_LIMITS, postWithKey } from './model-http.js';
import { invalid, type EndpointOptions } from './openai-client.js';
import { argumentsObject, REPLY_LIMITS, tooLong } from './reply-limits.js';

const ANTHROPIC_VERSION = '2023-06-01';

// thinking and other blocks the loop does not use are accepted and skipped; text and tool_use are checked below
const BlockSchema = z.looseObject({
  type: z.string().max(100),
  text: z.unknown().optional(),
  id: z.unknown().optional(),
  name: z.unknown().optional(),
  input: z.unknown().optional(),
});
const MessageSchema = z.looseObject({
  type: z.literal('message').optional(),
  model: z.string().max(200).optional(),
  content: z.array(BlockSchema).max(REPLY_LIMITS.toolCalls * 4),
  stop_reason: z.string().max(100).nullable().optional(),
  usage: z.looseObject({ input_tokens: z.number().nonnegative().optional(), output_tokens: z.number().nonnegative().optional() }).optional(),
});

// The Anthropic Messages API (POST {baseUrl}/v1/messages), without streaming.
export function anthropicClient(options: EndpointOptions): ModelClient {
  const limits = { ...DEFAULT_HTTP_LIMITS, ...options.limits };
  const url = `${options.baseUrl.replace(/\/+$/, '')}/v1/messages`;
  return {
    label: `anthropic:${options.model}`,
    async complete(request: ChatRequest): Promise<ChatOutcome> {
      const started = performance.now();
      const body = {
        model: options.model,
        max_tokens: request.maxTokens,
        system: request.system,
        messages: request.messages.map(toAnthropic),
        ...(request.tools.length === 0 ? {} : { tools: request.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema })) }),
      };
      const posted = await postWithKey({
        url,
        body,
        headers: { 'anthropic-version': ANTHROPIC_VERSION },
        apiKey: options.apiKey,
        keyHeader: (key) => ['x-api-key', key],
        limits,
        signal: request.signal,
      });
      if (!posted.ok) return posted;
      const parsed = MessageSchema.safeParse(posted.json);
      if (!parsed.success) return invalid(parsed.error);
      let text = '';
      const toolCalls: ToolCall[] = [];
      for (const [index, block] of parsed.data.content.entries()) {
        if (block.type === 'text') {
          if (typeof block.text !== 'string') return badBlock(index, 'a text block without a string "text"');
          text += block.text;
        } else if (block.type === 'tool_use') {
          if (typeof block.id !== 'string' || block.id === '' || block.id.length > REPLY_LIMITS.idChars)
            return badBlock(index, 'a tool_use block without a valid "id"');
          if (typeof block.name !== 'string' || block.name === '' || block.name.length > 200) return badBlock(index, 'a tool_use block without a valid "name"');
          if (toolCalls.length >= REPLY_LIMITS.toolCalls)
            return { ok: false, kind: 'invalid-reply', message: `the reply has more than ${REPLY_LIMITS.toolCalls} tool calls` };
          const args = argumentsObject(block.input);
          toolCalls.push(
            args.ok ? { id: block.id, name: block.name, input: args.value } : { id: block.id, name: block.name, input: undefined, inputProblem: args.problem },
          );
        }
      }
      if (tooLong(text)) return { ok: false, kind: 'invalid-reply', message: `the reply's text is longer than ${REPLY_LIMITS.textChars} characters` };
      return {
        ok: true,
        reply: {
          text,
          toolCalls,
          usage: { inputTokens: parsed.data.usage?.input_tokens ?? 0, outputTokens: parsed.data.usage?.output_tokens ?? 0 },
          stopReason: parsed.data.stop_reason ?? 'unknown',
          latencyMs: performance.now() - started,
          model: parsed.data.model ?? options.model,
        },
      };
    },
  };
}

function toAnthropic(message: ChatMessage): Record<string, unknown> {
  switch (message.role) {
    case 'user':
      return { role: 'user', content: message.text };
    case 'assistant':
      return {
        role: 'assistant',
        content: [
          ...(message.text === '' ? [] : [{ type: 'text', text: message.text }]),
          ...message.toolCalls.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: c.input ?? {} })),
        ],
      };
    case 'tool':
      return {
        role: 'user',
        content: message.results.map((r) => ({ type: 'tool_result', tool_use_id: r.callId, content: r.text, ...(r.isError ? { is_error: true } : {}) })),
      };
  }
}

function badBlock(index: number, what: string): ChatOutcome {
  return { ok: false, kind: 'invalid-reply', message: `the model API's reply is not in the expected shape: content.${index} is ${what}` };
}
