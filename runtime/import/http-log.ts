import type { ApiDocument } from './api-document.js';
import { JsonNode } from './json-node.js';
import type { JsonRecord } from './json-records.js';
import { isOtlpTraces, otelDocuments } from './otel-spans.js';
import type { SecretScrubber } from './secrets.js';
import { looksLikeSse, reassemble, sseRecords, streamEventKind } from './stream-events.js';

// parsed_body: VCR cassettes written by pydantic-ai and others keep the decoded body beside the raw one
const BODY_KEYS = ['parsed_body', 'body', 'json', 'data'] as const;
const TIME_KEYS = ['timestamp', 'time', 'startedDateTime', 'created_at', 'date'] as const;

// Flattens what a file holds into API payloads, in file order: request/response log entries (`{request, response}`,
// HAR `log.entries`, VCR `interactions`, proxy logs: Helicone's `request_body`/`response_body`, LiteLLM's `messages`
// beside `response`), arrays of them, streamed events (reassembled), or payloads themselves.
// Header values are read only to learn the secrets in them.
export function apiDocuments(records: readonly JsonRecord[], secrets: SecretScrubber): ApiDocument[] {
  const out: ApiDocument[] = [];
  let events: JsonRecord[] = [];
  const flush = (): void => {
    for (const reply of reassemble(events)) out.push({ node: JsonNode.of(reply), role: 'response' });
    events = [];
  };
  for (const record of records) {
    if (streamEventKind(record.value) !== undefined) {
      events.push(record);
      continue;
    }
    flush();
    const root = JsonNode.of(record);
    const har = root.optObj('log');
    if (har !== undefined && har.has('entries')) {
      for (const entry of har.arr('entries')) unwrapEntry(entry, secrets, out);
      continue;
    }
    if (isOtlpTraces(root)) {
      out.push(...otelDocuments(root));
      continue;
    }
    const interactions = root.get('interactions');
    if (interactions !== undefined && interactions.isArray() && interactions.items().some((item) => isLogEntry(item))) {
      for (const entry of interactions.items()) if (isLogEntry(entry)) unwrapEntry(entry, secrets, out);
      continue;
    }
    if (root.isArray() && root.items().every((item) => isLogEntry(item))) {
      for (const entry of root.items()) unwrapEntry(entry, secrets, out);
      continue;
    }
    if (isLogEntry(root)) unwrapEntry(root, secrets, out);
    else out.push({ node: root, role: 'bare' });
  }
  flush();
  return out;
}

function isLogEntry(node: JsonNode): boolean {
  if (!node.isObject()) return false;
  const request = node.get('request');
  const response = node.get('response');
  if ((request !== undefined && request.isObject()) || (response !== undefined && response.isObject())) return true;
  // proxy logs that flatten the bodies into the entry (Helicone: request_body / response_body)
  return FLAT_BODY_KEYS.some(([, key]) => isBody(node.get(key)));
}

const isBody = (node: JsonNode | undefined): boolean =>
  node !== undefined && (node.isObject() || typeof node.value === 'string');
// proxy logs (LiteLLM's StandardLoggingPayload) keep the request's own fields at the top of the entry
const REQUEST_FIELDS = ['messages', 'input'] as const;
const FLAT_BODY_KEYS = [
  ['request', 'request_body'],
  ['response', 'response_body'],
] as const;
// an API payload standing where an HTTP side would (LiteLLM's `response`): a reply's or request's own list fields
// (HAR's `content` is an object, VCR's `status` and `headers` are not lists, so those sides never match)
const PAYLOAD_LISTS = ['choices', 'output', 'content', 'messages', 'input'] as const;
const isPayload = (side: JsonNode): boolean => PAYLOAD_LISTS.some((k) => side.get(k)?.isArray() === true);

function unwrapEntry(entry: JsonNode, secrets: SecretScrubber, out: ApiDocument[]): void {
  const timestamp = TIME_KEYS.map((k) => entry.get(k)).find(
    (n) => n !== undefined && (typeof n.value === 'string' || typeof n.value === 'number'),
  );
  const time = timestamp === undefined ? {} : { timestamp: String(timestamp.value) };
  for (const [role, flat] of FLAT_BODY_KEYS) {
    const body = entry.get(flat);
    if (isBody(body)) {
      for (const node of typeof body?.value === 'string' ? textBody(entry, flat) : [body as JsonNode])
        out.push({ node, role, ...time });
      continue;
    }
    const side = entry.optObj(role);
    if (side === undefined) {
      // LiteLLM-style: the request's messages sit beside `response`; the entry itself is the request
      if (role === 'request' && REQUEST_FIELDS.some((k) => entry.get(k)?.isArray() === true))
        out.push({ node: entry, role, ...time });
      continue;
    }
    harvestHeaders(side, secrets);
    for (const body of bodiesOf(side)) out.push({ node: body, role, ...time });
  }
}

// The payload of one side of an exchange: an object, JSON text (HAR keeps it in postData.text / content.text, VCR
// in body.string), or a streamed reply's events, reassembled.
function bodiesOf(side: JsonNode): JsonNode[] {
  for (const key of BODY_KEYS) {
    const node = side.get(key);
    if (node === undefined || node.value === null) continue;
    if (typeof node.value === 'string') return textBody(side, key);
    const vcr = node.isObject() ? node.optStr('string') : undefined;
    if (vcr !== undefined) return textBody(node, 'string');
    return [node];
  }
  for (const [holder, key] of [
    ['postData', 'text'],
    ['content', 'text'],
  ] as const) {
    const inner = side.optObj(holder);
    if (inner !== undefined && inner.optStr(key) !== undefined) return textBody(inner, key);
  }
  // a proxy log that stores the payload itself as the side (LiteLLM's `response`)
  if (isPayload(side)) return [side];
  return [];
}

function textBody(holder: JsonNode, key: string): JsonNode[] {
  const text = holder.str(key);
  if (text.trim() === '') return [];
  if (!looksLikeSse(text)) return [holder.embedded(key)];
  const events = sseRecords(text, {
    file: holder.record.file,
    line: holder.record.line,
    parent: holder.record,
    path: [...holder.path, key],
  });
  return reassemble(events).map((reply) => JsonNode.of(reply));
}

// Headers as `{ name: value }` or HAR's `[{ name, value }]`: only secret-named values are kept, to be scrubbed.
function harvestHeaders(side: JsonNode, secrets: SecretScrubber): void {
  const headers = side.get('headers');
  if (headers === undefined) return;
  if (headers.isArray()) {
    for (const h of headers.items()) {
      const name = h.get('name')?.value;
      const value = h.get('value')?.value;
      if (typeof name === 'string' && typeof value === 'string' && secrets.isSecretKey(name)) secrets.collect(value);
    }
  } else if (headers.isObject()) {
    for (const [name, value] of Object.entries(headers.value as Record<string, unknown>)) {
      if (typeof value === 'string' && secrets.isSecretKey(name)) secrets.collect(value);
      if (Array.isArray(value) && secrets.isSecretKey(name))
        for (const v of value) if (typeof v === 'string') secrets.collect(v);
    }
  }
}
