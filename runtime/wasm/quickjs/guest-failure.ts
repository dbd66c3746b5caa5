import { decodeLossless } from '../../json/lossless.js';
import type { FailureKind, SourceLocation } from '../../protocol/run-result.js';
import { describeThrown } from '../../typescript/child/describe-thrown.js';
import { nodeStyleStack, type GuestSource } from './node-frames.js';

export interface GuestFailure {
  kind: FailureKind;
  message: string;
  location?: SourceLocation;
}

// Globals a Node program reaches for that QuickJS has not: a ReferenceError naming one says which engine ran it.
const NODE_GLOBALS = new Set([
  'require',
  'process',
  'Buffer',
  'module',
  'exports',
  '__dirname',
  '__filename',
  'global',
  'setImmediate',
  'fetch',
]);
const NOT_DEFINED = /^'([^']{1,64})' is not defined$/;

// What the guest threw (guest-prelude.ts `thrownText`, JSON the host reads as hostile data) as the run's failure:
// the same kinds and rendering as the Node engine, locations moved back over the wrapper's first line.
export function guestFailure(
  thrownJson: string,
  limits: { timeoutMs: number | undefined; memoryMb: number | undefined },
  source: GuestSource,
): GuestFailure {
  const decoded = decodeLossless(thrownJson);
  const thrown =
    decoded.ok && decoded.value !== null && typeof decoded.value === 'object'
      ? (decoded.value as Record<string, unknown>)
      : {};
  // a thrown non-error renders as the Node engine renders it: `Uncaught <value>`
  if (thrown.error !== true)
    return { kind: 'exception', message: describeThrown(String(thrown.text ?? 'an unrenderable value')).message };
  const name = String(thrown.name);
  let message = String(thrown.message);
  if (name === 'InternalError' && message === 'interrupted')
    return { kind: 'timeout', message: `execution deadline reached (${String(limits.timeoutMs)}ms)` };
  if (name === 'InternalError' && message === 'out of memory')
    message = `out of memory: the program reached the quickjs engine's heap limit (memoryMb ${String(limits.memoryMb)})`;
  if (name === 'InternalError' && message === 'stack overflow')
    message = "stack overflow: the program reached the quickjs engine's stack limit";
  const missing = name === 'ReferenceError' ? NOT_DEFINED.exec(message) : null;
  if (missing !== null && NODE_GLOBALS.has(missing[1] as string))
    message += ` (the quickjs engine runs plain JavaScript without Node built-ins; use engine "native" for them)`;
  // QuickJS frames read `    at f (program.ts:3:5)`, counted from the wrapper's first line: written as V8 writes them
  const stack = nodeStyleStack(String(thrown.stack ?? ''), source);
  const described = describeThrown({ name, message, stack });
  return described.location === undefined
    ? { kind: 'exception', message: described.message }
    : { kind: 'exception', message: described.message, location: described.location };
}
