import { z } from 'zod';
import type { ChatMessage, ChatOutcome, ChatProgress, ChatRequest, ModelClient, ToolCall } from './chat-types.js';
import { endpoint, type HttpLimits, type PostOutcome, postWithKey, preview } from './model-http.js';
import { checkedReply, REPLY_LIMITS, toolCallOf } from './reply-limits.js';
import { ChatCompletionStream, replyJson, streamEvents, type ReplyStream } from './stream-replies.js';

export interface EndpointOptions {
  // e.g. https://api.openai.com/v1 (the client appends /chat/completions or /responses)
  baseUrl: string;
  model: string;
  // read by the caller from the environment or the editor's secret storage; never stored by the client
  apiKey?: string;
  limits?: Partial<HttpLimits>;
}

// The reply fields the loop reads; everything else the API adds is ignored.
const ToolCallSchema = z.looseObject({
  id: z.string().min(1).max(REPLY_LIMITS.idChars).optional(),
  type: z.string().optional(),
  function: z.looseObject({ name: z.string().min(1).max(200), arguments: z.unknown().optional() }),
});
const CompletionSchema = z.looseObject({
  model: z.string().max(200).optional(),
  choices: z
    .array(
      z.looseObject({
        finish_reason: z.string().max(100).nullable().optional(),
        message: z.looseObject({
          content: z.string().nullable().optional(),
          refusal: z.string().nullable().optional(),
          tool_calls: z.array(ToolCallSchema).max(REPLY_LIMITS.toolCalls).nullable().optional(),
        }),
      }),
    )
    .min(1, 'the reply has no choices'),
  usage: z
    .looseObject({
      prompt_tokens: z.number().nonnegative().optional(),
      completion_tokens: z.number().nonnegative().optional(),
      prompt_tokens_details: z
        .looseObject({ cached_tokens: z.number().nonnegative().optional() })
        .nullable()
        .optional(),
    })
    .nullable()
    .optional(),
});

// An OpenAI-compatible Chat Completions endpoint (OpenAI, Azure-style proxies, vLLM, Ollama, LM Studio…); streamed
// (SSE chunks, the usage in a last chunk) when the request asks for progress.
export function openAiClient(options: EndpointOptions): ModelClient {
  const { url, limits } = endpoint(options, '/chat/completions');
  return {
    label: `openai:${options.model}`,
    async complete(request: ChatRequest): Promise<ChatOutcome> {
      const started = performance.now();
      const o = request.options ?? {};
      const body = {
        model: options.model,
        // max_tokens is deprecated and refused by reasoning models; compatible servers (vLLM, Ollama) take this name
        // too
        max_completion_tokens: request.maxTokens,
        messages: [{ role: 'system', content: request.system }, ...request.messages.flatMap(toOpenAi)],
        ...(request.tools.length === 0
          ? {}
          : {
              tools: request.tools.map((t) => ({
                type: 'function',
                function: { name: t.name, description: t.description, parameters: t.inputSchema },
              })),
            }),
        ...openAiOptions(request),
        ...(o.seed === undefined ? {} : { seed: o.seed }),
        ...(o.reasoningEffort === undefined ? {} : { reasoning_effort: o.reasoningEffort }),
        ...(request.onProgress === undefined ? {} : { stream: true, stream_options: { include_usage: true } }),
      };
      const stream = request.onProgress === undefined ? undefined : new ChatCompletionStream();
      const posted = await postOpenAi(url, body, options.apiKey, limits, request.signal, stream, request.onProgress);
      if (!posted.ok) return posted;
      const parsed = CompletionSchema.safeParse(replyJson(posted, stream));
      if (!parsed.success) return invalid(parsed.error);
      const choice = parsed.data.choices[0] as z.infer<typeof CompletionSchema>['choices'][number];
      const toolCalls: ToolCall[] = (choice.message.tool_calls ?? []).map((call, index) => {
        // a missing id (seen on some compatible servers) gets a stable one so the tool result can answer it
        return toolCallOf(call.id ?? `call_${index + 1}`, call.function.name, call.function.arguments ?? '{}');
      });
      return checkedReply(started, {
        text: choice.message.content ?? choice.message.refusal ?? '',
        toolCalls,
        usage: {
          inputTokens: parsed.data.usage?.prompt_tokens ?? 0,
          outputTokens: parsed.data.usage?.completion_tokens ?? 0,
          cachedInputTokens: parsed.data.usage?.prompt_tokens_details?.cached_tokens ?? 0,
        },
        stopReason: choice.finish_reason ?? 'unknown',
        model: parsed.data.model ?? options.model,
      });
    },
  };
}

// The request options both OpenAI APIs spell alike, each only when set (a tool choice only with tools).
export function openAiOptions(request: ChatRequest): Record<string, unknown> {
  const o = request.options ?? {};
  return {
    ...(request.tools.length === 0 || o.toolChoice === undefined ? {} : { tool_choice: o.toolChoice }),
    ...(o.temperature === undefined ? {} : { temperature: o.temperature }),
  };
}

function toOpenAi(message: ChatMessage): Record<string, unknown>[] {
  switch (message.role) {
    case 'user':
      return [{ role: 'user', content: message.text }];
    case 'assistant':
      return [
        {
          role: 'assistant',
          content: message.text === '' ? null : message.text,
          ...(message.toolCalls.length === 0
            ? {}
            : {
                tool_calls: message.toolCalls.map((c) => ({
                  id: c.id,
                  type: 'function',
                  function: { name: c.name, arguments: JSON.stringify(c.input ?? {}) },
                })),
              }),
        },
      ];
    case 'tool':
      return message.results.map((r) => ({ role: 'tool', tool_call_id: r.callId, content: r.text }));
  }
}

// Both OpenAI APIs (Chat Completions and Responses) carry the key as a bearer token; a streamed reply goes into
// `stream`.
export function postOpenAi(
  url: string,
  body: unknown,
  apiKey: string | undefined,
  limits: HttpLimits,
  signal: AbortSignal | undefined,
  stream?: ReplyStream,
  onProgress?: (progress: ChatProgress) => void,
): Promise<PostOutcome> {
  return postWithKey({
    url,
    body,
    headers: {},
    apiKey,
    keyHeader: (key) => ['authorization', `Bearer ${key}`],
    limits,
    signal,
    ...(stream === undefined || onProgress === undefined ? {} : { onEvent: streamEvents(stream, onProgress) }),
  });
}

export function invalid(error: z.ZodError): ChatOutcome {
  const issue = error.issues[0];
  const where = issue === undefined || issue.path.length === 0 ? 'the reply' : issue.path.map(String).join('.');
  return {
    ok: false,
    kind: 'invalid-reply',
    message: `the model API's reply is not in the expected shape: ${where}: ${preview(issue?.message ?? 'invalid')}`,
  };
}
