// A local stand-in for a model API: it speaks OpenAI Chat Completions (POST /v1/chat/completions) and the
// Anthropic Messages API (POST /v1/messages) with scripted replies, so `ptc eval` and the tests run offline.
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
// The turn is the number of assistant messages already in the request; "mode" is code when run_code is offered.
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
    const api = req.url === '/v1/messages' ? 'anthropic' : /\/chat\/completions$/.test(req.url ?? '') ? 'openai' : undefined;
    if (req.method !== 'POST' || api === undefined) return send(res, 404, { error: { message: `no route ${req.method} ${req.url}` } });
    let body;
    try {
      body = JSON.parse(text);
    } catch {
      return send(res, 400, { error: { message: 'the request body is not JSON' } });
    }
    requests.push({ api, url: req.url, headers: { ...req.headers }, body });
    const tools = Array.isArray(body.tools) ? body.tools : [];
    const mode = tools.some((t) => (t.function?.name ?? t.name) === 'run_code') ? 'code' : 'direct';
    const first = firstUserText(api, body.messages ?? []);
    const turn = (body.messages ?? []).filter((m) => m.role === 'assistant').length;
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
    if (api === 'openai')
      return send(res, 200, {
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
      });
    return send(res, 200, {
      id: `msg_${id}`,
      type: 'message',
      role: 'assistant',
      model,
      content: [...(reply.text === undefined ? [] : [{ type: 'text', text: reply.text }]), ...calls.map((c, i) => ({ type: 'tool_use', id: `toolu_${id}_${i}`, name: c.tool, input: c.input }))],
      stop_reason: calls.length === 0 ? 'end_turn' : 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: usage.input, output_tokens: usage.output },
    });
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
