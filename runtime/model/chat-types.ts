import type { JsonValue } from '../protocol/json-value.js';

// A provider-neutral conversation: what the agent loop says and hears, whatever API carries it.

export interface ToolSpec {
  // ^[A-Za-z0-9_-]{1,64}$: the one alphabet both Chat Completions and Messages accept
  name: string;
  description: string;
  inputSchema: { [key: string]: JsonValue };
}

export interface ToolCall {
  id: string;
  name: string;
  // the parsed arguments object; undefined when the model sent something that is not a JSON object
  input: { [key: string]: JsonValue } | undefined;
  // why `input` is undefined (sent back to the model as the tool's error)
  inputProblem?: string;
}

export interface ToolResult {
  callId: string;
  text: string;
  isError: boolean;
}

// `replay`: the reply's own items as the provider sent them (thinking blocks with their signatures, Responses reasoning
// items), which that provider requires back unchanged within the loop; another provider ignores them.
export type ChatMessage =
  | { role: 'user'; text: string }
  | { role: 'assistant'; text: string; toolCalls: ToolCall[]; replay?: ProviderReplay }
  | { role: 'tool'; results: ToolResult[] };

export interface ProviderReplay {
  // the client label that produced the items
  provider: string;
  items: JsonValue[];
}

// Sampling and reasoning settings; each provider sends the ones its API has.
export interface ModelOptions {
  maxTokens?: number;
  temperature?: number;
  seed?: number;
  // OpenAI reasoning models (`reasoning.effort`)
  reasoningEffort?: 'minimal' | 'low' | 'medium' | 'high';
  // Anthropic extended thinking: the thinking budget in tokens
  thinkingBudget?: number;
  // auto: the model may answer without a tool; required: it must call one; none: it may not
  toolChoice?: 'auto' | 'required' | 'none';
}

// What a streamed reply has said so far: its text and each tool call's name and input JSON text (usually incomplete).
export interface ChatProgress {
  text: string;
  // `program`: the agent loop's reading of a run_code call's `code` so far
  toolCalls: { name: string; input: string; program?: string }[];
}

export interface ChatRequest {
  system: string;
  messages: readonly ChatMessage[];
  tools: readonly ToolSpec[];
  maxTokens: number;
  // the rest of the model options (the loop has already resolved `maxTokens`)
  options?: ModelOptions;
  signal?: AbortSignal;
  // set: the reply is streamed, and what has arrived so far (text, tool calls' input JSON text) is reported as it comes
  onProgress?: (progress: ChatProgress) => void;
}

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  // input tokens read from the provider's prompt cache (part of inputTokens)
  cachedInputTokens?: number;
}

export interface ChatReply {
  text: string;
  toolCalls: ToolCall[];
  usage: TokenUsage;
  // the provider's own word (end_turn, tool_use, stop, tool_calls, length…)
  stopReason: string;
  // wall time of the request, retries included
  latencyMs: number;
  // the model that answered, as the provider names it
  model: string;
  replay?: ProviderReplay;
}

// network: unreachable or timed out; http: a non-retryable status; rate-limited: 429/529 after every retry (or a
// retry-after too long to wait); unavailable: a 5xx after every retry; invalid-reply: the body is not the API's shape;
// aborted: cancelled; config: the client cannot be used as set up.
export type ModelFailureKind =
  'network' | 'http' | 'rate-limited' | 'unavailable' | 'invalid-reply' | 'aborted' | 'config';

export type ChatOutcome =
  { ok: true; reply: ChatReply } | { ok: false; kind: ModelFailureKind; message: string; status?: number };

export interface ModelClient {
  // e.g. "openai:gpt-4o-mini" — never carries a key
  readonly label: string;
  complete(request: ChatRequest): Promise<ChatOutcome>;
}
