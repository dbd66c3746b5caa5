import { anthropicClient } from './anthropic-client.js';
import type { ModelClient } from './chat-types.js';
import type { HttpLimits } from './model-http.js';
import { openAiClient } from './openai-client.js';
import { openAiResponsesClient } from './openai-responses-client.js';

// openai: Chat Completions; openai-responses: the Responses API (same key and base URL)
export const ENDPOINT_PROVIDERS = ['openai', 'openai-responses', 'anthropic'] as const;
export type EndpointProvider = (typeof ENDPOINT_PROVIDERS)[number];

// One model behind an HTTP endpoint: which API, where, and which model. The key is never part of it.
export interface ModelSpec {
  provider: EndpointProvider;
  model: string;
  baseUrl: string;
}

export const DEFAULT_BASE_URLS: Record<EndpointProvider, string> = {
  openai: 'https://api.openai.com/v1',
  'openai-responses': 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com',
};
// where each provider's key is read from; the PTC_ name wins so a key can be scoped to this tool
export const KEY_VARIABLES: Record<EndpointProvider, readonly string[]> = {
  openai: ['PTC_OPENAI_API_KEY', 'OPENAI_API_KEY'],
  'openai-responses': ['PTC_OPENAI_API_KEY', 'OPENAI_API_KEY'],
  anthropic: ['PTC_ANTHROPIC_API_KEY', 'ANTHROPIC_API_KEY'],
};
const BASE_URL_VARIABLES: Record<EndpointProvider, string> = {
  openai: 'PTC_OPENAI_BASE_URL',
  'openai-responses': 'PTC_OPENAI_BASE_URL',
  anthropic: 'PTC_ANTHROPIC_BASE_URL',
};

export type SpecParse = { ok: true; spec: ModelSpec } | { ok: false; message: string };

// `provider:model[@baseUrl]`, e.g. `openai:gpt-4o-mini`, `openai-responses:o4-mini`,
// `anthropic:claude-sonnet-4-5@http://127.0.0.1:8080`.
export function parseModelSpec(text: string, env: NodeJS.ProcessEnv = {}): SpecParse {
  const match = /^(openai-responses|openai|anthropic):([^@\s]{1,200})(?:@(\S+))?$/.exec(text.trim());
  if (match === null)
    return {
      ok: false,
      message: `"${text}" is not a model: expected provider:model[@baseUrl] with provider ${ENDPOINT_PROVIDERS.join(', ')}`,
    };
  const provider = match[1] as EndpointProvider;
  const baseUrl = match[3] ?? env[BASE_URL_VARIABLES[provider]] ?? DEFAULT_BASE_URLS[provider];
  const checked = checkBaseUrl(baseUrl);
  if (checked !== undefined) return { ok: false, message: checked };
  return { ok: true, spec: { provider, model: match[2] as string, baseUrl } };
}

// http(s) only, and no credentials in the URL: a URL is shown in messages and written into reports.
export function checkBaseUrl(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `"${text}" is not a URL`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return `the model base URL must be http or https, not ${url.protocol}`;
  if (url.username !== '' || url.password !== '')
    return 'the model base URL must not carry credentials: put the key in the environment';
  return undefined;
}

export function specLabel(spec: ModelSpec): string {
  return `${spec.provider}:${spec.model}`;
}

export function keyFromEnv(provider: EndpointProvider, env: NodeJS.ProcessEnv): string | undefined {
  for (const name of KEY_VARIABLES[provider]) {
    const value = env[name];
    if (value !== undefined && value.trim() !== '') return value.trim();
  }
  return undefined;
}

export function endpointClient(spec: ModelSpec, apiKey: string | undefined, limits?: Partial<HttpLimits>): ModelClient {
  const options = {
    baseUrl: spec.baseUrl,
    model: spec.model,
    ...(apiKey === undefined ? {} : { apiKey }),
    ...(limits === undefined ? {} : { limits }),
  };
  switch (spec.provider) {
    case 'openai':
      return openAiClient(options);
    case 'openai-responses':
      return openAiResponsesClient(options);
    case 'anthropic':
      return anthropicClient(options);
  }
}
