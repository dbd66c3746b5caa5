import { z } from 'zod';
import type { JsonValue } from '../protocol/json-value.js';
import type { ChatMessage, ChatOutcome, ChatRequest, ModelClient, ToolCall } from './chat-types.js';
import { endpoint } from './model-http.js';
import { invalid, openAiOptions, postOpenAi, type EndpointOptions } from './openai-client.js';
import { checkedReply, REPLY_LIMITS, toolCallOf, tooManyToolCalls } from './reply-limits.js';
import { replyJson, ResponsesStream } from './stream-replies.js';

// The output items the loop reads; reasoning and other items are kept whole for the next turn and otherwise ignored.
const ItemSchema = z.looseObject({
  type: z.string().max(100),
  role: z.string().max(50).optional(),
  content: z.unknown().optional(),
  call_id: z.string().min(1).max(REPLY_LIMITS.idChars).optional(),
  name: z.string().max(200).optional(),
  arguments: z.unknown().optional(),
});
const ResponseSchema = z.looseObject({
  model: z.string().max(200).optional(),
  status: z.string().max(50).optional(),
  incomplete_details: z
    .looseObject({ reason: z.string().max(200).optional() })
    .nullable()
    .optional(),
  error: z.looseObject({ message: z.string().optional() }).nullable().optional(),
  output: z.array(ItemSchema).max(REPLY_LIMITS.toolCalls * 8),
  usage: z
    .looseObject({
      input_tokens: z.number().nonnegative().optional(),
      output_tokens: z.number().nonnegative().optional(),
      input_tokens_details: z.looseObject({ cached_tokens: z.number().nonnegative().optional() }).nullable().optional(),
    })
    .nullable()
    .optional(),
});
type OutputItem = z.infer<typeof ItemSchema>;

// OpenAI's Responses API (POST {baseUrl}/responses), streamed (SSE events) when the request asks for progress;
// stateless: `store: false`, and every output item of a turn — reasoning included, encrypted when reasoning is asked
// for — goes back as input of the next.
export function openAiResponsesClient(options: EndpointOptions): ModelClient {
  const { url, limits } = endpoint(options, '/responses');
  const label = `openai-responses:${options.model}`;
  return {
    label,
    async complete(request: ChatRequest): Promise<ChatOutcome> {
      const started = performance.now();
      const o = request.options ?? {};
      const body = {
        model: options.model,
        instructions: request.system,
        input: request.messages.flatMap((m) => toResponses(m, label)),
        max_output_tokens: request.maxTokens,
        store: false,
        ...(request.tools.length === 0
          ? {}
          : {
              tools: request.tools.map((t) => ({
                type: 'function',
                name: t.name,
                description: t.description,
                parameters: t.inputSchema,
              })),
            }),
        ...openAiOptions(request),
        // without stored responses, reasoning can only be carried to the next turn encrypted
        ...(o.reasoningEffort === undefined
          ? {}
          : { reasoning: { effort: o.reasoningEffort }, include: ['reasoning.encrypted_content'] }),
        ...(request.onProgress === undefined ? {} : { stream: true }),
      };
      const stream = request.onProgress === undefined ? undefined : new ResponsesStream();
      const posted = await postOpenAi(url, body, options.apiKey, limits, request.signal, stream, request.onProgress);
      if (!posted.ok) return posted;
      const json = replyJson(posted, stream);
      const parsed = ResponseSchema.safeParse(json);
      if (!parsed.success) return invalid(parsed.error);
      const reply = parsed.data;
      if (reply.status === 'failed')
        return {
          ok: false,
          kind: 'invalid-reply',
          message: `the response failed: ${reply.error?.message ?? 'no reason given'}`.slice(0, 500),
        };
      let text = '';
      const toolCalls: ToolCall[] = [];
      for (const [index, item] of reply.output.entries()) {
        if (item.type === 'message') text += messageText(item);
        else if (item.type === 'function_call') {
          if (item.call_id === undefined || item.name === undefined || item.name === '')
            return {
              ok: false,
              kind: 'invalid-reply',
              message: `the model API's reply is not in the expected shape: output.${index} is a function_call without call_id or name`,
            };
          if (toolCalls.length >= REPLY_LIMITS.toolCalls) return tooManyToolCalls();
          toolCalls.push(toolCallOf(item.call_id, item.name, item.arguments ?? '{}'));
        }
      }
      const incomplete =
        reply.status === 'incomplete' ? `incomplete: ${reply.incomplete_details?.reason ?? 'unknown'}` : undefined;
      return checkedReply(started, {
        text,
        toolCalls,
        usage: {
          inputTokens: reply.usage?.input_tokens ?? 0,
          outputTokens: reply.usage?.output_tokens ?? 0,
          cachedInputTokens: reply.usage?.input_tokens_details?.cached_tokens ?? 0,
        },
        stopReason: incomplete ?? (toolCalls.length > 0 ? 'function_call' : (reply.status ?? 'completed')),
        model: reply.model ?? options.model,
        replay: { provider: label, items: replayItems(json) },
      });
    },
  };
}

function messageText(item: OutputItem): string {
  if (!Array.isArray(item.content)) return typeof item.content === 'string' ? item.content : '';
  let text = '';
  for (const part of item.content as unknown[]) {
    if (part === null || typeof part !== 'object') continue;
    const p = part as { type?: unknown; text?: unknown; refusal?: unknown };
    if (p.type === 'output_text' && typeof p.text === 'string') text += p.text;
    else if (p.type === 'refusal' && typeof p.refusal === 'string') text += p.refusal;
  }
  return text;
}

// The reply's output items as sent; a reasoning item without encrypted content cannot be resent when nothing is stored.
function replayItems(json: unknown): JsonValue[] {
  const output = (json as { output?: unknown }).output;
  if (!Array.isArray(output)) return [];
  return (output as JsonValue[]).filter((item) => {
    const i = item as { type?: unknown; encrypted_content?: unknown };
    return i.type !== 'reasoning' || typeof i.encrypted_content === 'string';
  });
}

function toResponses(message: ChatMessage, label: string): JsonValue[] {
  switch (message.role) {
    case 'user':
      return [{ role: 'user', content: message.text }];
    case 'assistant':
      if (message.replay !== undefined && message.replay.provider === label) return message.replay.items;
      return [
        ...(message.text === '' ? [] : [{ role: 'assistant', content: message.text }]),
        ...message.toolCalls.map((c) => ({
          type: 'function_call',
          call_id: c.id,
          name: c.name,
          arguments: JSON.stringify(c.input ?? {}),
        })),
      ];
    case 'tool':
      return message.results.map((r) => ({ type: 'function_call_output', call_id: r.callId, output: r.text }));
  }
}
