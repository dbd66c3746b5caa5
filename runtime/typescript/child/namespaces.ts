import { checkLossless, encodeChecked } from '../../json/lossless.js';
import type { JsonValue } from '../../protocol/json-value.js';
import type { BootFrame } from '../../protocol/node-wire.js';

const defineProperty = Object.defineProperty;
const createObject = Object.create;
const freeze = Object.freeze;
const stringify = JSON.stringify;
const PromiseCtor = Promise;
const ErrorCtor = Error;
const MapCtor = Map;

export type ReplyHandler = (reply: { id: number; ok: boolean; value?: JsonValue; message?: string }) => void;
type ErrorFactory = (message: string, member: string) => Error;

type Settle = (reply: { ok: true; value: JsonValue } | { ok: false; message: string }) => void;

// Builds the program's binding globals: null-prototype objects of async functions over the control channel.
// `sendMany` writes several frames at once: calls released by replies go out together, after the host's chunk.
export function createNamespaces(boot: BootFrame, send: (text: string) => void, sendMany: (texts: string[]) => void) {
  const pending = new MapCtor<number, Settle>();
  const queued: { id: number; text: string }[] = [];
  let outbox: string[] = [];
  let outboxLength = 0;
  // before any newer call goes out, so ids reach the host in order
  const flushOutbox = (): void => {
    if (outboxLength === 0) return;
    const texts = outbox;
    outbox = [];
    outboxLength = 0;
    sendMany(texts);
  };
  let nextId = 1;
  let inFlight = 0;
  const max = boot.maxPendingCalls;
  const errorClasses: (abstract new (...args: never[]) => Error)[] = [];

  const objects = boot.namespaces.map((ns) => {
    let makeError: ErrorFactory = (message) => new ErrorCtor(message);
    if (ns.errorClass !== undefined) {
      const { name, memberNameProperty } = ns.errorClass;
      const cls = class extends ErrorCtor {};
      defineProperty(cls, 'name', { value: name });
      errorClasses.push(cls);
      makeError = (message, member) => {
        const error = new cls(message);
        defineProperty(error, 'name', { value: name, enumerable: true, writable: true, configurable: true });
        defineProperty(error, memberNameProperty, { value: member, enumerable: true, writable: true, configurable: true });
        return error;
      };
    }
    const target = createObject(null) as Record<string, unknown>;
    for (const name of ns.names) {
      const label = `${ns.global}.${name}`;
      // the constant part of this function's call frames, encoded once
      const head = `,"global":${stringify(ns.global)},"name":${stringify(name)},"args":`;
      const fn = async (args: unknown = null): Promise<JsonValue> => {
        const check = checkLossless(args);
        if (!check.ok) throw makeError(`arguments to ${label} must be lossless JSON: ${check.reason}`, name);
        const id = nextId++;
        const text = `{"type":"call","id":${id}${head}${encodeChecked(args as JsonValue, check.depth)}}`;
        const reply = new PromiseCtor<{ ok: true; value: JsonValue } | { ok: false; message: string }>((resolve) => pending.set(id, resolve));
        // bounded in flight; the rest wait here rather than fail
        if (inFlight < max) {
          inFlight++;
          flushOutbox();
          send(text);
        } else queued.push({ id, text });
        const outcome = await reply;
        if (outcome.ok) return outcome.value;
        // created after the await so its stack carries the program's async frames (and so its location)
        throw makeError(outcome.message, name);
      };
      defineProperty(fn, 'name', { value: name });
      defineProperty(target, name, { value: fn, enumerable: true });
    }
    return freeze(target);
  });

  const handleReply: ReplyHandler = (reply) => {
    const settle = pending.get(reply.id);
    if (settle === undefined) return;
    pending.delete(reply.id);
    inFlight--;
    const next = queued.shift();
    if (next !== undefined) {
      inFlight++;
      outbox[outboxLength++] = next.text;
    }
    if (reply.ok) settle({ ok: true, value: reply.value as JsonValue });
    else settle({ ok: false, message: typeof reply.message === 'string' ? reply.message : 'binding failed' });
  };

  return { objects, errorClasses, handleReply, flushOutbox };
}
