// A local stand-in for a model API: it speaks OpenAI Chat Completions (POST /v1/chat/completions), the OpenAI
// Responses API (POST /v1/responses) and the Anthropic Messages API (POST /v1/messages) with scripted replies, so
// `ptc eval` and the tests run offline. Like OpenAI, it refuses `max_tokens` for reasoning models (o1, o3, o4, gpt-5…),
// and with "thinking": true a reply carries a reasoning item (Responses, encrypted when asked) or a signed thinking block
// (Messages) that must come back unchanged on the next turn, or the next request is refused with 400.
//
// Script (JSON): { "rules": [ { "match": "<text in the first user message>", "mode"?: "code" | "direct",
//                               "model"?: "<model name>", "replies": [ <reply for turn 1>, <reply for turn 2>, … ] } ] }
// A reply is one of:
//   { "text": "final answer" }
//   { "run_code": { "code": "…", "description": "…" } }          (the run_code tool)
//   { "calls": [ { "tool": "tools_lookupCity", "input": { … } } ] } (any tools, several at once)
//   { "status": 429 | 500 | …, "retryAfter"?: seconds, "times"?: n, "then"?: <reply> }  (fails n times, then `then`)
//   { "raw": "<body>" }                                            (a malformed reply, sent as is with status 200)
//   { "delayMs": n, "then": <reply> }                              (a slow reply)
// Any reply may add "thinking": true, and "chunkDelayMs": n (a streamed reply waits n ms between its events).
// A request with "stream": true gets the reply as the API streams it (server-sent events: Messages events,
// Chat Completions chunks with the usage last when stream_options.include_usage, Responses events); a request the
// client abandons mid-stream is marked `aborted: true` in `requests`, one sent to its end `ended: true`.
// The turn is the number of assistant turns already in the request; "mode" is code when run_code is offered.
// Run it with serve-fake-model.mjs (next to this file); tests and `npm run demo` import startFakeModelServer.
import http from 'node:http';

const MAX_BODY = 32 * 1024 * 1024;

export async function startFakeModelServer(options = {}) {
  let script = options.script ?? { rules: [] };
  const requests = [];
  const failures = new Map();
  const server = http.createServer((req, res) => {
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    req.on('end', () => {
      void handle(req, res, Buffer.concat(chunks).toString('utf8')).catch((error) => send(res, 500, { error: { message: String(error) } }));
    });
  });
  async function handle(req, res, text) {
    const api =
      req.url === '/v1/messages'
        ? 'anthropic'
        : /\/chat\/completions$/.test(req.url ?? '')
          ? 'openai'
          : /\/responses$/.test(req.url ?? '')
            ? 'responses'
            : undefined;
    if (req.method !== 'POST' || api === undefined) return send(res, 404, { error: { message: `no route ${req.method} ${req.url}` } });
    let body;
    try {
      body = JSON.parse(text);
    } catch {
      return send(res, 400, { error: { message: 'the request body is not JSON' } });
    }
    const entry = { api, url: req.url, headers: { ...req.headers }, body };
    requests.push(entry);
    const reply200 = (json, reply) =>
      body.stream === true ? streamReply(res, api, json, { chunkDelayMs: reply.chunkDelayMs ?? 0, usage: body.stream_options?.include_usage === true, entry }) : send(res, 200, json);
    if (api === 'openai' && body.max_tokens !== undefined && REASONING_MODEL.test(String(body.model)))
      return send(res, 400, {
        error: {
          message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
          type: 'invalid_request_error',
          param: 'max_tokens',
          code: 'unsupported_parameter',
        },
      });
    const lost = lostThinking(api, body);
    if (lost !== undefined) return send(res, 400, { error: { message: lost, type: 'invalid_request_error' } });
    const tools = Array.isArray(body.tools) ? body.tools : [];
    const mode = tools.some((t) => (t.function?.name ?? t.name) === 'run_code') ? 'code' : 'direct';
    const history = api === 'responses' ? (typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : (body.input ?? [])) : (body.messages ?? []);
    const first = firstUserText(api, history);
    const turn = api === 'responses' ? modelTurns(history) : history.filter((m) => m.role === 'assistant').length;
    const rule = (script.rules ?? []).find(
      (r) => first.includes(r.match) && (r.mode === undefined || r.mode === mode) && (r.model === undefined || r.model === body.model),
    );
    if (rule === undefined) return send(res, 400, { error: { message: `the fake model has no rule for this task (${mode} mode)` } });
    let reply = rule.replies[Math.min(turn, rule.replies.length - 1)];
    const at = `${script.rules.indexOf(rule)}:${turn}`;
    // each nested failure counts its own attempts
    for (let depth = 0; ; depth++) {
      const key = `${at}:${depth}`;
      if (reply.delayMs !== undefined) {
        const closed = await delay(reply.delayMs, res);
        if (closed) return;
        reply = reply.then;
        continue;
      }
      if (reply.status !== undefined) {
        const seen = failures.get(key) ?? 0;
        if (seen < (reply.times ?? Infinity)) {
          failures.set(key, seen + 1);
          const headers = reply.retryAfter === undefined ? {} : { 'retry-after': String(reply.retryAfter) };
          return send(res, reply.status, api === 'anthropic' ? { type: 'error', error: { type: 'rate_limit_error', message: `scripted ${reply.status}` } } : { error: { message: `scripted ${reply.status}`, type: 'requests' } }, headers);
        }
        reply = reply.then;
        continue;
      }
      break;
    }
    if (reply.raw !== undefined) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(reply.raw);
    }
    const calls = reply.run_code !== undefined ? [{ tool: 'run_code', input: reply.run_code }] : (reply.calls ?? []);
    const usage = { input: Math.ceil(text.length / 4), output: Math.ceil(JSON.stringify(reply).length / 4) };
    const model = body.model;
    const id = `${requests.length}`;
    if (api === 'responses') {
      const encrypted = Array.isArray(body.include) && body.include.includes('reasoning.encrypted_content');
      const output = [
        ...(reply.thinking === true
          ? [{ type: 'reasoning', id: `rs_${id}`, summary: [], ...(encrypted ? { encrypted_content: `enc_${id}` } : {}) }]
          : []),
        ...(reply.text === undefined
          ? []
          : [{ type: 'message', id: `msg_${id}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: reply.text, annotations: [] }] }]),
        ...calls.map((c, i) => ({
          type: 'function_call',
          id: `fc_${id}_${i}`,
          call_id: `call_${id}_${i}`,
          name: c.tool,
          arguments: typeof c.input === 'string' ? c.input : JSON.stringify(c.input),
          status: 'completed',
        })),
      ];
      return reply200({
        id: `resp_${id}`,
        object: 'response',
        created_at: 0,
        status: 'completed',
        model,
        output,
        usage: { input_tokens: usage.input, input_tokens_details: { cached_tokens: 0 }, output_tokens: usage.output, total_tokens: usage.input + usage.output },
      }, reply);
    }
    if (api === 'openai')
      return reply200({
        id: `chatcmpl-${id}`,
        object: 'chat.completion',
        created: 0,
        model,
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: reply.text ?? null,
              ...(calls.length === 0
                ? {}
                : { tool_calls: calls.map((c, i) => ({ id: `call_${id}_${i}`, type: 'function', function: { name: c.tool, arguments: typeof c.input === 'string' ? c.input : JSON.stringify(c.input) } })) }),
            },
            finish_reason: calls.length === 0 ? 'stop' : 'tool_calls',
          },
        ],
        usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output },
      }, reply);
    return reply200({
      id: `msg_${id}`,
      type: 'message',
      role: 'assistant',
      model,
      content: [
        ...(reply.thinking === true ? [{ type: 'thinking', thinking: 'Let me think.', signature: `sig_${id}` }] : []),
        ...(reply.text === undefined ? [] : [{ type: 'text', text: reply.text }]),
        ...calls.map((c, i) => ({ type: 'tool_use', id: `toolu_${id}_${i}`, name: c.tool, input: c.input }))],
      stop_reason: calls.length === 0 ? 'end_turn' : 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: usage.input, output_tokens: usage.output },
    }, reply);
  }
  await new Promise((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    setScript: (next) => {
      script = next;
      failures.clear();
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

const REASONING_MODEL = /^(o\d|gpt-5)/;

// Assistant turns in a Responses input: each run of model output items (reasoning, function calls, assistant messages).
function modelTurns(items) {
  let turns = 0;
  let inTurn = false;
  for (const item of items) {
    const fromModel = item.type === 'reasoning' || item.type === 'function_call' || item.role === 'assistant';
    if (fromModel && !inTurn) turns++;
    inTurn = fromModel;
  }
  return turns;
}

// A reply that reasoned must get its reasoning back: a tool result whose turn's reasoning item or thinking block is
// missing (or changed) is refused, as the real APIs do for thinking blocks.
function lostThinking(api, body) {
  if (api === 'anthropic') {
    for (const message of body.messages ?? []) {
      if (message.role !== 'assistant' || !Array.isArray(message.content)) continue;
      const uses = message.content.filter((b) => b.type === 'tool_use');
      const thinking = message.content.find((b) => b.type === 'thinking');
      if (uses.length > 0 && thinking === undefined && body.thinking !== undefined)
        return 'messages: an assistant turn with tool_use must start with its thinking block when thinking is enabled';
      if (thinking !== undefined && !/^sig_\d+$/.test(thinking.signature ?? '')) return 'messages: invalid signature in thinking block';
    }
  }
  if (api === 'responses' && Array.isArray(body.input)) {
    for (const item of body.input)
      if (item.type === 'reasoning' && body.store === false && typeof item.encrypted_content !== 'string')
        return `Item with id '${item.id}' not found. Items are not persisted when \`store\` is set to false.`;
  }
  return undefined;
}

function firstUserText(api, messages) {
  const first = messages.find((m) => m.role === 'user');
  if (first === undefined) return '';
  if (typeof first.content === 'string') return first.content;
  return Array.isArray(first.content) ? first.content.map((p) => p.text ?? '').join('') : '';
}

function send(res, status, json, headers = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(json));
}

// A reply as the API streams it: the events each API sends for the same reply object, text and JSON in small pieces.
async function streamReply(res, api, reply, { chunkDelayMs, usage, entry }) {
  const events = api === 'anthropic' ? anthropicEvents(reply) : api === 'openai' ? chatChunks(reply, usage) : responsesEvents(reply);
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  for (const [name, data] of events) {
    if (res.destroyed || res.writableEnded) break;
    res.write(`${name === undefined ? '' : `event: ${name}\n`}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
    if (chunkDelayMs > 0 && (await delay(chunkDelayMs, res))) {
      entry.aborted = true;
      return;
    }
  }
  res.end();
  entry.ended = true;
}

const pieces = (text, size = 12) => {
  const out = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
};

function anthropicEvents(message) {
  const events = [['message_start', { type: 'message_start', message: { ...message, content: [], stop_reason: null, stop_sequence: null, usage: { ...message.usage, output_tokens: 1 } } }], ['ping', { type: 'ping' }]];
  message.content.forEach((block, index) => {
    const start = block.type === 'text' ? { type: 'text', text: '' } : block.type === 'thinking' ? { type: 'thinking', thinking: '', signature: '' } : { ...block, input: {} };
    events.push(['content_block_start', { type: 'content_block_start', index, content_block: start }]);
    const delta = (d) => events.push(['content_block_delta', { type: 'content_block_delta', index, delta: d }]);
    if (block.type === 'text') pieces(block.text).forEach((text) => delta({ type: 'text_delta', text }));
    else if (block.type === 'thinking') {
      delta({ type: 'thinking_delta', thinking: block.thinking });
      delta({ type: 'signature_delta', signature: block.signature });
    } else pieces(JSON.stringify(block.input)).forEach((partial_json) => delta({ type: 'input_json_delta', partial_json }));
    events.push(['content_block_stop', { type: 'content_block_stop', index }]);
  });
  events.push(['message_delta', { type: 'message_delta', delta: { stop_reason: message.stop_reason, stop_sequence: null }, usage: { output_tokens: message.usage.output_tokens } }]);
  events.push(['message_stop', { type: 'message_stop' }]);
  return events;
}

function chatChunks(completion, usage) {
  const { message, finish_reason } = completion.choices[0];
  const head = { id: completion.id, object: 'chat.completion.chunk', created: completion.created, model: completion.model };
  const chunk = (delta, finish = null) => [undefined, { ...head, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], usage: null }];
  const chunks = [chunk({ role: 'assistant', content: message.content === null ? null : '', refusal: null })];
  if (message.content !== null) pieces(message.content).forEach((content) => chunks.push(chunk({ content })));
  (message.tool_calls ?? []).forEach((call, index) => {
    chunks.push(chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] }));
    pieces(call.function.arguments).forEach((args) => chunks.push(chunk({ tool_calls: [{ index, function: { arguments: args } }] })));
  });
  chunks.push(chunk({}, finish_reason));
  if (usage) chunks.push([undefined, { ...head, choices: [], usage: completion.usage }]);
  chunks.push([undefined, '[DONE]']);
  return chunks;
}

function responsesEvents(response) {
  let sequence = 0;
  const events = [];
  const emit = (type, fields) => events.push([type, { type, sequence_number: sequence++, ...fields }]);
  emit('response.created', { response: { ...response, status: 'in_progress', output: [], usage: null } });
  response.output.forEach((item, output_index) => {
    if (item.type === 'message') {
      emit('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', content: [] } });
      item.content.forEach((part, content_index) => {
        emit('response.content_part.added', { item_id: item.id, output_index, content_index, part: { ...part, text: '' } });
        pieces(part.text).forEach((delta) => emit('response.output_text.delta', { item_id: item.id, output_index, content_index, delta }));
        emit('response.output_text.done', { item_id: item.id, output_index, content_index, text: part.text });
        emit('response.content_part.done', { item_id: item.id, output_index, content_index, part });
      });
    } else if (item.type === 'function_call') {
      emit('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', arguments: '' } });
      pieces(item.arguments).forEach((delta) => emit('response.function_call_arguments.delta', { item_id: item.id, output_index, delta }));
      emit('response.function_call_arguments.done', { item_id: item.id, output_index, arguments: item.arguments });
    } else emit('response.output_item.added', { output_index, item });
    emit('response.output_item.done', { output_index, item });
  });
  emit('response.completed', { response });
  return events;
}

// Waits, unless the client goes away first (a cancelled request): true when it did.
function delay(ms, res) {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      res.off('close', onClose);
      resolve(false);
    }, ms);
    const onClose = () => {
      clearTimeout(timer);
      resolve(true);
    };
    res.on('close', onClose);
  });
}
