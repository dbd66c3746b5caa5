import type { ModelFailureKind } from './chat-types.js';
import { SseDecoder } from './sse-decoder.js';

export interface HttpLimits {
  // a reply body larger than this is refused, not buffered
  maxReplyBytes: number;
  // one attempt's deadline
  requestTimeoutMs: number;
  // attempts after the first, for 429, 500, 502, 503, 504 and 529
  retries: number;
  // the longest wait a `retry-after` may ask for; longer asks end the request as rate-limited
  maxRetryWaitMs: number;
}

export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  maxReplyBytes: 8 * 1024 * 1024,
  requestTimeoutMs: 120_000,
  retries: 3,
  maxRetryWaitMs: 60_000,
};

// Where a client posts and under which limits, decided alike for every API: the base URL without its trailing
// slashes, then the API's path; the caller's limits over the defaults.
export function endpoint(
  options: { baseUrl: string; limits?: Partial<HttpLimits> | undefined },
  apiPath: string,
): { url: string; limits: HttpLimits } {
  return {
    url: `${options.baseUrl.replace(/\/+$/, '')}${apiPath}`,
    limits: { ...DEFAULT_HTTP_LIMITS, ...options.limits },
  };
}

export interface PostRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  signal?: AbortSignal;
  limits: HttpLimits;
  // every credential the request carries: removed from any text this module returns
  secrets: readonly string[];
  // a streamed reply's events (`stream: true` in the body): each `data:` payload, parsed, as it arrives; a returned
  // failure (an `error` event) ends the request. A server that answers with plain JSON instead is read as usual.
  onEvent?: (data: unknown) => StreamStop | undefined;
}

export interface StreamStop {
  kind: ModelFailureKind;
  message: string;
}

// `streamed`: the reply came as events, all given to `onEvent` (json is then undefined)
export type PostOutcome =
  | { ok: true; status: number; json: unknown; streamed?: boolean }
  | { ok: false; kind: ModelFailureKind; message: string; status?: number };

const RETRYABLE = new Set([429, 500, 502, 503, 504, 529]);
// 529 is Anthropic's "overloaded": like 429, the provider asks for less traffic; other 5xx mean the service is down
const RATE_LIMITED = new Set([429, 529]);
const MAX_MESSAGE = 500;

export interface KeyedPost {
  url: string;
  body: unknown;
  // the provider's own headers, besides the JSON ones
  headers: Record<string, string>;
  apiKey: string | undefined;
  // how this provider carries the key
  keyHeader: (key: string) => [name: string, value: string];
  limits: HttpLimits;
  signal: AbortSignal | undefined;
  onEvent?: PostRequest['onEvent'];
}

// A provider's JSON request with its API key, when there is one (a credential no returned text ever carries).
export function postWithKey(options: KeyedPost): Promise<PostOutcome> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: options.onEvent === undefined ? 'application/json' : 'text/event-stream',
    ...options.headers,
  };
  const key = options.apiKey;
  if (key !== undefined && key !== '') {
    const [name, value] = options.keyHeader(key);
    headers[name] = value;
  }
  return postJson({
    url: options.url,
    headers,
    body: JSON.stringify(options.body),
    limits: options.limits,
    secrets: key === undefined ? [] : [key],
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
  });
}

// POSTs JSON and reads a bounded JSON reply, retrying rate limits and server errors as the provider asks.
export async function postJson(request: PostRequest): Promise<PostOutcome> {
  const scrub = scrubber(request.secrets);
  for (let attempt = 0; ; attempt++) {
    if (request.signal?.aborted === true)
      return { ok: false, kind: 'aborted', message: 'the model request was cancelled' };
    const outcome = await attemptOnce(request, scrub);
    if (outcome.kind !== 'retry') return outcome.outcome;
    const wait = outcome.waitMs ?? Math.min(1000 * 2 ** attempt, request.limits.maxRetryWaitMs);
    if (attempt >= request.limits.retries || wait > request.limits.maxRetryWaitMs) {
      const why =
        wait > request.limits.maxRetryWaitMs
          ? ` (the server asked to wait ${Math.ceil(wait / 1000)} s)`
          : ` after ${attempt + 1} attempts`;
      return {
        ok: false,
        kind: failedKind(outcome.status),
        status: outcome.status,
        message: `${outcome.message}${why}`,
      };
    }
    if (!(await sleep(wait, request.signal)))
      return { ok: false, kind: 'aborted', message: 'the model request was cancelled' };
  }
}

function failedKind(status: number): ModelFailureKind {
  return RATE_LIMITED.has(status) ? 'rate-limited' : 'unavailable';
}

type Attempt =
  | { kind: 'done'; outcome: PostOutcome }
  | { kind: 'retry'; status: number; waitMs: number | undefined; message: string };

async function attemptOnce(request: PostRequest, scrub: (text: string) => string): Promise<Attempt> {
  const controller = new AbortController();
  const forward = (): void => controller.abort();
  request.signal?.addEventListener('abort', forward, { once: true });
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  // one attempt's deadline; a stream re-arms it at every chunk, so it bounds the silence, not the whole reply
  const arm = (): void => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, request.limits.requestTimeoutMs);
  };
  arm();
  try {
    let response: Response;
    try {
      response = await fetch(request.url, {
        method: 'POST',
        headers: request.headers,
        body: request.body,
        signal: controller.signal,
        redirect: 'error',
      });
    } catch (error) {
      return { kind: 'done', outcome: failure(request, timedOut, scrub(causeOf(error))) };
    }
    const streamed =
      request.onEvent !== undefined &&
      response.status >= 200 &&
      response.status <= 299 &&
      /^text\/event-stream\b/i.test(response.headers.get('content-type') ?? '');
    if (streamed) {
      const read = await readEvents(response, request, arm);
      if (!read.ok && (request.signal?.aborted === true || timedOut))
        return { kind: 'done', outcome: failure(request, timedOut, read.message) };
      return {
        kind: 'done',
        outcome: read.ok
          ? { ok: true, status: response.status, json: undefined, streamed: true }
          : { ok: false, kind: read.kind, status: response.status, message: scrub(read.message) },
      };
    }
    const body = await readBounded(response, request.limits.maxReplyBytes);
    if (!body.ok) {
      if (request.signal?.aborted === true || timedOut)
        return { kind: 'done', outcome: failure(request, timedOut, body.message) };
      return {
        kind: 'done',
        outcome: {
          ok: false,
          kind: body.tooLarge ? 'invalid-reply' : 'network',
          status: response.status,
          message: body.message,
        },
      };
    }
    if (RETRYABLE.has(response.status))
      return {
        kind: 'retry',
        status: response.status,
        waitMs: retryAfter(response.headers),
        message: `the model API answered ${response.status}${errorText(body.text, scrub)}`,
      };
    if (response.status < 200 || response.status > 299)
      return {
        kind: 'done',
        outcome: {
          ok: false,
          kind: 'http',
          status: response.status,
          message: `the model API answered ${response.status}${errorText(body.text, scrub)}${hint(response.status)}`,
        },
      };
    try {
      return { kind: 'done', outcome: { ok: true, status: response.status, json: JSON.parse(body.text) as unknown } };
    } catch {
      return {
        kind: 'done',
        outcome: {
          ok: false,
          kind: 'invalid-reply',
          status: response.status,
          message: `the model API's reply is not JSON: ${preview(scrub(body.text))}`,
        },
      };
    }
  } finally {
    clearTimeout(timer);
    request.signal?.removeEventListener('abort', forward);
  }
}

// Reads a streamed reply event by event (at most `maxReplyBytes` in all), handing each `data:` payload to the request.
async function readEvents(
  response: Response,
  request: PostRequest,
  onChunk: () => void,
): Promise<{ ok: true } | ({ ok: false } & StreamStop)> {
  const reader = response.body?.getReader();
  if (reader === undefined) return { ok: false, kind: 'invalid-reply', message: "the model API's stream is empty" };
  const decoder = new SseDecoder();
  const text = new TextDecoder('utf-8', { fatal: false });
  const onEvent = request.onEvent as NonNullable<PostRequest['onEvent']>;
  let size = 0;
  const take = (events: { data: string }[]): StreamStop | undefined => {
    for (const event of events) {
      if (event.data.trim() === '[DONE]') continue;
      let data: unknown;
      try {
        data = JSON.parse(event.data);
      } catch {
        return {
          kind: 'invalid-reply',
          message: `the model API streamed an event that is not JSON: ${preview(event.data)}`,
        };
      }
      const stop = onEvent(data);
      if (stop !== undefined) return stop;
    }
    return undefined;
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      onChunk();
      size += value.byteLength;
      if (size > request.limits.maxReplyBytes) {
        await reader.cancel().catch(() => undefined);
        return {
          ok: false,
          kind: 'invalid-reply',
          message: `the model API's reply is larger than ${request.limits.maxReplyBytes} bytes`,
        };
      }
      const stop = take(decoder.push(text.decode(value, { stream: true })));
      if (stop !== undefined) {
        await reader.cancel().catch(() => undefined);
        return { ok: false, ...stop };
      }
    }
  } catch (error) {
    return { ok: false, kind: 'network', message: `the model API's stream was cut off: ${causeOf(error)}` };
  }
  const stop = take([...decoder.push(text.decode()), ...decoder.end()]);
  return stop === undefined ? { ok: true } : { ok: false, ...stop };
}

function failure(request: PostRequest, timedOut: boolean, cause: string): PostOutcome {
  if (request.signal?.aborted === true)
    return { ok: false, kind: 'aborted', message: 'the model request was cancelled' };
  if (timedOut)
    return {
      ok: false,
      kind: 'network',
      message: `the model API did not answer within ${request.limits.requestTimeoutMs} ms`,
    };
  return { ok: false, kind: 'network', message: `cannot reach the model API at ${originOf(request.url)}: ${cause}` };
}

type Body = { ok: true; text: string } | { ok: false; tooLarge: boolean; message: string };

// Reads at most `max` bytes: a hostile or broken endpoint cannot make the host buffer without bound.
async function readBounded(response: Response, max: number): Promise<Body> {
  const reader = response.body?.getReader();
  if (reader === undefined) return { ok: true, text: '' };
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > max) {
        await reader.cancel().catch(() => undefined);
        return { ok: false, tooLarge: true, message: `the model API's reply is larger than ${max} bytes` };
      }
      chunks.push(value);
    }
  } catch (error) {
    return { ok: false, tooLarge: false, message: `the model API's reply was cut off: ${causeOf(error)}` };
  }
  return { ok: true, text: new TextDecoder('utf-8', { fatal: false }).decode(Buffer.concat(chunks)) };
}

// `retry-after` in seconds or as an HTTP date; anything else means "use the backoff".
function retryAfter(headers: Headers): number | undefined {
  const raw = headers.get('retry-after-ms') ?? undefined;
  if (raw !== undefined && /^\d+(\.\d+)?$/.test(raw.trim())) return Number(raw.trim());
  const value = headers.get('retry-after')?.trim();
  if (value === undefined || value === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

// The API's own error message (`{error:{message}}` in both APIs), shortened; never the raw body of an HTML page.
function errorText(body: string, scrub: (text: string) => string): string {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string };
    const message = typeof parsed.error === 'string' ? parsed.error : parsed.error?.message;
    if (typeof message === 'string' && message !== '') return `: ${preview(scrub(message))}`;
  } catch {
    // not JSON: fall through
  }
  return body.trim() === '' ? '' : `: ${preview(scrub(body))}`;
}

function hint(status: number): string {
  return status === 401 || status === 403
    ? " (check the API key in the environment or the editor's secret storage)"
    : '';
}

export function preview(text: string): string {
  // one line, bounded, control characters shown as spaces: this text reaches cells, logs and terminals
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]+/g, ' ').trim();
  return flat.length > MAX_MESSAGE ? `${flat.slice(0, MAX_MESSAGE)}…` : flat;
}

export function scrubber(secrets: readonly string[]): (text: string) => string {
  const literal = secrets.filter((s) => s.length >= 4);
  return (text) => literal.reduce((out, secret) => out.split(secret).join('[redacted]'), text);
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'an invalid URL';
  }
}

function causeOf(error: unknown): string {
  const e = error as { cause?: { code?: unknown; message?: unknown }; message?: unknown };
  if (typeof e.cause?.code === 'string') return e.cause.code;
  if (typeof e.cause?.message === 'string') return e.cause.message;
  return typeof e.message === 'string' ? e.message : String(error);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted === true) return resolve(false);
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
