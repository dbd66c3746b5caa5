import { z } from 'zod';
import type { JsonValue } from '../protocol/json-value.js';
import type { ChatMessage, ChatOutcome, ChatRequest, ModelClient, TokenUsage, ToolCall } from './chat-types.js';
import { endpoint, postWithKey } from './model-http.js';
import { invalid, type EndpointOptions } from './openai-client.js';
import { checkedReply, REPLY_LIMITS, toolCallOf, tooManyToolCalls } from './reply-limits.js';
import { AnthropicMessageStream, replyJson, streamEvents } from './stream-replies.js';

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
  usage: z
    .looseObject({
      input_tokens: z.number().nonnegative().optional(),
      output_tokens: z.number().nonnegative().optional(),
      cache_read_input_tokens: z.number().nonnegative().nullable().optional(),
      cache_creation_input_tokens: z.number().nonnegative().nullable().optional(),
    })
    .optional(),
});
const CACHE = { type: 'ephemeral' } as const;
const TOOL_CHOICE = { auto: { type: 'auto' }, required: { type: 'any' }, none: { type: 'none' } } as const;

// The Anthropic Messages API (POST {baseUrl}/v1/messages); streamed (SSE) when the request asks for progress.
export function anthropicClient(options: EndpointOptions): ModelClient {
  const { url, limits } = endpoint(options, '/v1/messages');
  return {
    label: `anthropic:${options.model}`,
    async complete(request: ChatRequest): Promise<ChatOutcome> {
      const started = performance.now();
      const o = request.options ?? {};
      const label = `anthropic:${options.model}`;
      const last = request.tools.length - 1;
      // the tools and the system text are the same every turn: one cache breakpoint after them serves every later turn
      const body = {
        model: options.model,
        max_tokens: request.maxTokens,
        system: [{ type: 'text', text: request.system, cache_control: CACHE }],
        messages: request.messages.map((m) => toAnthropic(m, label)),
        ...(request.tools.length === 0
          ? {}
          : {
              tools: request.tools.map((t, i) => ({
                name: t.name,
                description: t.description,
                input_schema: t.inputSchema,
                ...(i === last ? { cache_control: CACHE } : {}),
              })),
            }),
        ...(request.tools.length === 0 || o.toolChoice === undefined ? {} : { tool_choice: TOOL_CHOICE[o.toolChoice] }),
        ...(o.temperature === undefined ? {} : { temperature: o.temperature }),
        ...(o.thinkingBudget === undefined ? {} : { thinking: { type: 'enabled', budget_tokens: o.thinkingBudget } }),
        ...(request.onProgress === undefined ? {} : { stream: true }),
      };
      const stream = request.onProgress === undefined ? undefined : new AnthropicMessageStream();
      const posted = await postWithKey({
        url,
        body,
        headers: { 'anthropic-version': ANTHROPIC_VERSION },
        apiKey: options.apiKey,
        keyHeader: (key) => ['x-api-key', key],
        limits,
        signal: request.signal,
        ...(stream === undefined || request.onProgress === undefined
          ? {}
          : { onEvent: streamEvents(stream, request.onProgress) }),
      });
      if (!posted.ok) return posted;
      const json = replyJson(posted, stream);
      const parsed = MessageSchema.safeParse(json);
      if (!parsed.success) return invalid(parsed.error);
      let text = '';
      const toolCalls: ToolCall[] = [];
      let thinking = false;
      for (const [index, block] of parsed.data.content.entries()) {
        if (block.type === 'thinking' || block.type === 'redacted_thinking') thinking = true;
        if (block.type === 'text') {
          if (typeof block.text !== 'string') return badBlock(index, 'a text block without a string "text"');
          text += block.text;
        } else if (block.type === 'tool_use') {
          if (typeof block.id !== 'string' || block.id === '' || block.id.length > REPLY_LIMITS.idChars)
            return badBlock(index, 'a tool_use block without a valid "id"');
          if (typeof block.name !== 'string' || block.name === '' || block.name.length > 200)
            return badBlock(index, 'a tool_use block without a valid "name"');
          if (toolCalls.length >= REPLY_LIMITS.toolCalls) return tooManyToolCalls();
          toolCalls.push(toolCallOf(block.id, block.name, block.input));
        }
      }
      return checkedReply(started, {
        text,
        toolCalls,
        usage: usageOf(parsed.data.usage),
        stopReason: parsed.data.stop_reason ?? 'unknown',
        model: parsed.data.model ?? options.model,
        // thinking blocks must go back unchanged (signatures included) with the tool results they led to
        ...(thinking
          ? { replay: { provider: label, items: json !== null && typeof json === 'object' ? contentOf(json) : [] } }
          : {}),
      });
    },
  };
}

// Cache reads and writes are billed apart from `input_tokens`; the total is what the prompt cost to read.
function usageOf(usage: z.infer<typeof MessageSchema>['usage']): TokenUsage {
  const read = usage?.cache_read_input_tokens ?? 0;
  const written = usage?.cache_creation_input_tokens ?? 0;
  return {
    inputTokens: (usage?.input_tokens ?? 0) + read + written,
    outputTokens: usage?.output_tokens ?? 0,
    cachedInputTokens: read,
  };
}

function contentOf(reply: object): JsonValue[] {
  const content = (reply as { content?: unknown }).content;
  return Array.isArray(content) ? (content as JsonValue[]) : [];
}

function toAnthropic(message: ChatMessage, label: string): Record<string, unknown> {
  switch (message.role) {
    case 'user':
      return { role: 'user', content: message.text };
    case 'assistant':
      if (message.replay !== undefined && message.replay.provider === label)
        return { role: 'assistant', content: message.replay.items };
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
        content: message.results.map((r) => ({
          type: 'tool_result',
          tool_use_id: r.callId,
          content: r.text,
          ...(r.isError ? { is_error: true } : {}),
        })),
      };
  }
}

function badBlock(index: number, what: string): ChatOutcome {
  return {
    ok: false,
    kind: 'invalid-reply',
    message: `the model API's reply is not in the expected shape: content.${index} is ${what}`,
  };
}
