import { encodeWithin } from '../../json/lossless.js';
import {
  ArrayPrototypeJoin as join,
  ErrorCtor,
  JSONStringify as stringify,
  MapCtor,
  MapPrototypeDelete,
  MapPrototypeGet,
  MapPrototypeSet,
  ObjectCreate as createObject,
  ObjectDefineProperty as defineProperty,
  ObjectFreeze as freeze,
  ObjectPrototypeHasOwnProperty,
  PromiseCtor,
  setIndex,
} from '../../json/primordials.js';
import type { JsonValue } from '../../protocol/json-value.js';
import type { BootFrame } from '../../protocol/node-wire.js';
import { LIMITS } from '../../contract/limits.js';

export type Reply = { id: number; ok: boolean; value?: JsonValue; message?: string; code?: unknown; data?: unknown };
export type ReplyHandler = (reply: Reply) => void;
type ErrorFactory = (message: string, member: string) => Error;

// A call's waiting side: receives the host's reply frame as parsed.
type Settle = (reply: Reply) => void;

// A call frame's arguments: what the host accepts in one control frame, less room for the frame's own fields.
const MAX_ARGS_BYTES = LIMITS.maxFrameBytes - 64 * 1024;

// Property descriptors without a prototype: `get`/`set` planted on Object.prototype by the program must not be read.
function dataProperty(value: unknown, enumerable: boolean): PropertyDescriptor {
  const descriptor = createObject(null) as PropertyDescriptor;
  descriptor.value = value;
  descriptor.enumerable = enumerable;
  descriptor.writable = true;
  descriptor.configurable = true;
  return descriptor;
}

// Builds the program's binding globals: null-prototype objects of async functions over the control channel.
// `sendMany` writes several frames at once: calls released by replies go out together, after the host's chunk.
// Runs after model code: captured intrinsics, counted queues (the program may patch Array/Map/Promise prototypes).
export function createNamespaces(boot: BootFrame, send: (text: string) => void, sendMany: (texts: string[]) => void) {
  const pending = new MapCtor<number, Settle>();
  // calls over the in-flight bound, oldest at queueHead
  let queued: (string | undefined)[] = [];
  let queueHead = 0;
  let queueTail = 0;
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
        defineProperty(error, 'name', dataProperty(name, true));
        defineProperty(error, memberNameProperty, dataProperty(member, true));
        return error;
      };
    }
    const target = createObject(null) as Record<string, unknown>;
    for (const name of ns.names) {
      const label = `${ns.global}.${name}`;
      // the constant part of this function's call frames, encoded once
      const head = `,"global":${stringify(ns.global)},"name":${stringify(name)},"args":`;
      const fn = async (args: unknown = null): Promise<JsonValue> => {
        // one walk validates and writes the arguments, bounded by what one control frame may carry
        const encoded = encodeWithin(args, MAX_ARGS_BYTES);
        if (!encoded.ok) {
          throw makeError(
            encoded.kind === 'lossy'
              ? `arguments to ${label} must be lossless JSON: ${encoded.reason}`
              : `arguments to ${label} are larger than a binding call carries (${MAX_ARGS_BYTES} bytes of JSON)`,
            name,
          );
        }
        const id = nextId++;
        const argsText = encoded.partCount === 1 ? (encoded.parts[0] as string) : join(encoded.parts, '');
        const text = `{"type":"call","id":${id}${head}${argsText}}`;
        let outcome: Reply | undefined;
        // resolved with undefined, not the reply object: a `then` planted on Object.prototype must not hijack it
        const reply = new PromiseCtor<void>((resolve) => {
          MapPrototypeSet(pending, id, (r: Reply) => {
            outcome = r;
            resolve();
          });
        });
        // bounded in flight; the rest wait here rather than fail
        if (inFlight < max) {
          inFlight++;
          flushOutbox();
          send(text);
        } else setIndex(queued, queueTail++, text);
        await reply;
        const settled = outcome as Reply;
        if (settled.ok === true) return settled.value as JsonValue;
        // created after the await so its stack carries the program's async frames (and so its location)
        const error = makeError(typeof settled.message === 'string' ? settled.message : 'binding failed', name);
        // a failure's details (an MCP server's JSON-RPC code and data); the member-name property is never replaced
        if (settled.code !== undefined && !ObjectPrototypeHasOwnProperty(error, 'code'))
          defineProperty(error, 'code', dataProperty(settled.code, true));
        if (settled.data !== undefined && !ObjectPrototypeHasOwnProperty(error, 'data'))
          defineProperty(error, 'data', dataProperty(settled.data, true));
        throw error;
      };
      defineProperty(fn, 'name', { value: name });
      defineProperty(target, name, { value: fn, enumerable: true });
    }
    return freeze(target);
  });

  const handleReply: ReplyHandler = (reply) => {
    const settle = MapPrototypeGet(pending, reply.id);
    if (settle === undefined) return;
    MapPrototypeDelete(pending, reply.id);
    inFlight--;
    if (queueHead < queueTail) {
      const next = queued[queueHead] as string;
      queued[queueHead++] = undefined;
      if (queueHead === queueTail) {
        queued = [];
        queueHead = 0;
        queueTail = 0;
      }
      inFlight++;
      setIndex(outbox, outboxLength++, next);
    }
    settle(reply);
  };

  // the bindings host is gone: every call still waiting fails with the runtime's message
  const failPending = (message: string): void => {
    for (let id = 1; id < nextId; id++)
      if (MapPrototypeGet(pending, id) !== undefined) handleReply({ id, ok: false, message });
  };

  return { objects, errorClasses, handleReply, flushOutbox, failPending };
}
