// The extension host's side of the browser's bindings worker, against a worker that says what a hostile module could
// make it say (the real worker runs in Chromium: test/extension/web/web-bindings.test.ts). Every frame that is not
// the protocol's ends the worker: the call it answered fails naming itself, and the next run gets a fresh worker.
import { describe, expect, test } from 'vitest';
import { failureDetails } from '../../../../runtime/bindings/call-failure.js';
import { WebBindingsHost } from '../../../../runtime/bindings-host/web/web-bindings-host.js';
import type { RunWorker } from '../../../../runtime/wasm/web/web-engine.js';
import type { JsonValue } from '../../../../runtime/protocol/json-value.js';

const MODULE = { path: 'm.bindings.mjs', namespaces: { tools: { functions: { f: {} } } } };

interface Sent {
  type: string;
  run: number;
  id: number;
  args: JsonValue;
}

// A host whose workers answer each message with the frames `respond` gives (sent as they are, one task later).
function hostWith(respond: (message: Sent) => unknown[], file = 'm.bindings.mjs') {
  const started: { terminated: boolean }[] = [];
  const host = new WebBindingsHost({
    file,
    text: 'export default {}',
    // a TypeScript module's types take a task to strip
    strip: (text) => new Promise((resolve) => setTimeout(() => resolve({ ok: true, code: text }), 10)),
    onWarning: () => undefined,
    onLog: () => undefined,
    startWorker: () => {
      const record = { terminated: false };
      started.push(record);
      const port: RunWorker = {
        onmessage: null,
        onerror: null,
        terminate: () => (record.terminated = true),
        postMessage: (text) => {
          for (const data of respond(JSON.parse(text) as Sent)) queueMicrotask(() => port.onmessage?.({ data }));
        },
      };
      return port;
    },
  });
  return { host, started };
}

// A worker that loads the module, then answers each call with what `answer` gives.
const scriptedHost = (answer: (call: Sent) => unknown[], file?: string) =>
  hostWith(
    (message) =>
      message.type === 'load'
        ? [JSON.stringify({ type: 'loaded', module: MODULE })]
        : message.type === 'call'
          ? answer(message)
          : [],
    file,
  );

async function callOnce(host: WebBindingsHost, args: JsonValue = {}): Promise<JsonValue> {
  const ready = await host.ready({ timeoutMs: 5_000 });
  expect(ready).toMatchObject({ ok: true });
  const lease = host.lease({ mode: 'mock', seed: 1 });
  try {
    return await (lease.namespaces[0]?.functions.f?.(args) ?? Promise.reject(new Error('no function')));
  } finally {
    lease.close();
  }
}

describe('WebBindingsHost', () => {
  test('answers and failures cross as data; a failure keeps its code and data', async () => {
    const { host } = scriptedHost(({ run, id, args }) => [
      JSON.stringify(
        (args as { fail?: boolean }).fail === true
          ? { type: 'failed', run, id, message: 'no such city', details: { code: 404, data: { city: 'Atlantis' } } }
          : { type: 'answer', run, id, value: { echoed: args } },
      ),
    ]);
    await expect(callOnce(host, { q: 1 })).resolves.toEqual({ echoed: { q: 1 } });
    const thrown = await callOnce(host, { fail: true }).catch((error: unknown) => error);
    expect((thrown as Error).message).toBe('no such city');
    expect(failureDetails(thrown)).toEqual({ code: 404, data: { city: 'Atlantis' } });
    host.dispose();
  });

  test('runs that ask for the module at once share one worker (a TypeScript module strips first)', async () => {
    const { host, started } = scriptedHost(
      ({ run, id }) => [JSON.stringify({ type: 'answer', run, id, value: 1 })],
      'm.bindings.ts',
    );
    const both = await Promise.all([host.ready({ timeoutMs: 5_000 }), host.ready({ timeoutMs: 5_000 })]);
    expect(both.map((ready) => ready.ok)).toEqual([true, true]);
    expect(started).toHaveLength(1);
    host.dispose();
  });

  test('an answer to a call nobody made is dropped; the real one still arrives', async () => {
    const { host } = scriptedHost(({ run, id }) => [
      JSON.stringify({ type: 'answer', run, id: id + 7, value: 'forged' }),
      JSON.stringify({ type: 'answer', run: run + 7, id, value: 'forged' }),
      JSON.stringify({ type: 'answer', run, id, value: 'real' }),
    ]);
    await expect(callOnce(host)).resolves.toBe('real');
    host.dispose();
  });

  test.each([
    ['a message that is not text', { type: 'answer' }, 'a message that is not text'],
    ['text that is not JSON', '{"type": "answer", ', 'a message that is not lossless JSON'],
    ['-0', '{"type":"answer","run":1,"id":1,"value":-0}', 'a message that is not lossless JSON'],
    ['an unsafe integer', '{"type":"answer","run":1,"id":1,"value":9007199254740993}', 'not lossless JSON'],
    ['an unknown frame', '{"type":"exec","code":"1"}', 'a malformed message'],
    ['a frame with a key too many', '{"type":"heartbeat","extra":1}', 'a malformed message'],
  ])(
    '%s ends the worker: the call fails naming itself, the next run gets a fresh worker',
    async (_what, data, said) => {
      let first = true;
      const { host, started } = scriptedHost(({ run, id }) => {
        if (!first) return [JSON.stringify({ type: 'answer', run, id, value: 'fresh' })];
        first = false;
        return [data];
      });
      const thrown = await callOnce(host).catch((error: unknown) => error);
      expect((thrown as Error).message).toMatch(
        /^bindings worker broke its protocol \(.+\) while tools\.f was running$/,
      );
      expect((thrown as Error).message).toContain(said);
      expect(started[0]?.terminated).toBe(true);
      await expect(callOnce(host)).resolves.toBe('fresh');
      expect(started).toHaveLength(2);
      host.dispose();
      expect(started[1]?.terminated).toBe(true);
    },
  );

  test('a module description that breaks the schema fails the load, naming the worker', async () => {
    const { host } = hostWith(() => [JSON.stringify({ type: 'loaded', module: { path: 1, namespaces: [] } })]);
    const ready = await host.ready({ timeoutMs: 5_000 });
    expect(ready).toMatchObject({
      ok: false,
      message: expect.stringContaining('the bindings worker broke its protocol'),
    });
    host.dispose();
  });
});
