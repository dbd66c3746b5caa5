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

interface Pending {
  resolve: (value: JsonValue) => void;
  reject: (error: Error) => void;
  makeError: ErrorFactory;
  name: string;
}

// Builds the program's binding globals: null-prototype objects of async functions over the control channel.
export function createNamespaces(boot: BootFrame, send: (text: string) => void) {
  const pending = new MapCtor<number, Pending>();
  const queued: { id: number; text: string }[] = [];
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
      const fn = async (args: unknown = null): Promise<JsonValue> => {
        const check = checkLossless(args);
        if (!check.ok) throw makeError(`arguments to ${label} must be lossless JSON: ${check.reason}`, name);
        const id = nextId++;
        const text = `{"type":"call","id":${id},"global":${stringify(ns.global)},"name":${stringify(name)},"args":${encodeChecked(args as JsonValue, check.depth)}}`;
        const promise = new PromiseCtor<JsonValue>((resolve, reject) => pending.set(id, { resolve, reject, makeError, name }));
        // bounded in flight; the rest wait here rather than fail
        if (inFlight < max) {
          inFlight++;
          send(text);
        } else queued.push({ id, text });
        return promise;
      };
      defineProperty(fn, 'name', { value: name });
      defineProperty(target, name, { value: fn, enumerable: true });
    }
    return freeze(target);
  });

  const handleReply: ReplyHandler = (reply) => {
    const entry = pending.get(reply.id);
    if (entry === undefined) return;
    pending.delete(reply.id);
    inFlight--;
    const next = queued.shift();
    if (next !== undefined) {
      inFlight++;
      send(next.text);
    }
    if (reply.ok) entry.resolve(reply.value as JsonValue);
    else entry.reject(entry.makeError(typeof reply.message === 'string' ? reply.message : 'binding failed', entry.name));
  };

  return { objects, errorClasses, handleReply };
}
