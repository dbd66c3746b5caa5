import type { CallDispatcher } from '../bindings/dispatcher.js';
import { jsonByteLength } from '../json/json-size.js';
import { decodeLossless } from '../json/lossless.js';
import { capText, MAX_EXCEPTION_CHARS } from '../output/diagnostic.js';
import type { JsonValue } from '../protocol/json-value.js';
import type { SourceLocation } from '../protocol/run-result.js';
import type { HostedBindings, HostedRunLink } from '../protocol/hosted-bindings.js';
import { replyText, shortcutStringFrame } from '../protocol/program-wire.js';
import type { RunState } from './run-state.js';
import { linkPauses, type RunPauseLink } from './call-pauses.js';

// The frames every backend's child sends while its program runs, already validated against the backend's schema.
export type ProgramFrame =
  | { type: 'log'; stream: 'stdout' | 'stderr'; text: string; open?: true | undefined }
  | { type: 'call'; id: number; global: string; name: string; args?: unknown }
  | {
      type: 'done';
      value?: unknown;
      error?:
        | {
            kind: 'exception' | 'invalid-output' | 'output-limit';
            message: string;
            location?: SourceLocation | undefined;
          }
        | undefined;
    };

// Applies one program frame, decoded with decodeLossless, to the run: logs go to the ledger, calls to the dispatcher,
// done settles (re-metered: the child is hostile, so a forged completion is measured again here). `valueless` is what a
// done without a value means in the language (TypeScript: no value; Python has no undefined: null).
export function applyProgramFrame(
  session: RunState,
  dispatcher: CallDispatcher,
  frame: ProgramFrame,
  valueless: 'absent' | 'null',
  // where calls go instead of straight to the dispatcher (a run whose calls a bindings host serves)
  onCall?: (call: Extract<ProgramFrame, { type: 'call' }>) => void,
): void {
  if (frame.type === 'log') {
    session.log(frame.stream, frame.text, frame.open === true);
  } else if (frame.type === 'call') {
    if (onCall !== undefined) return onCall(frame);
    dispatchCall(session, dispatcher, frame);
  } else if (frame.error !== undefined) {
    const { kind, location } = frame.error;
    // the children cap what they render; a forged done is capped here
    const message = capText(frame.error.message, MAX_EXCEPTION_CHARS);
    session.fail(location === undefined ? { kind, message } : { kind, message, location });
  } else if ('value' in frame && frame.value !== undefined) {
    // decodeLossless checked every number in it (a string frame has none): only its size is measured, not encoded
    const valueBytes = jsonByteLength(frame.value as JsonValue);
    session.settle({ kind: 'completed', value: frame.value as JsonValue, valueBytes });
  } else if (valueless === 'null') {
    session.settle({ kind: 'completed', value: null, valueBytes: 4 });
  } else {
    session.settle({ kind: 'completed', valueBytes: 0 });
  }
}

function dispatchCall(
  session: RunState,
  dispatcher: CallDispatcher,
  call: Extract<ProgramFrame, { type: 'call' }>,
): void {
  const verdict = dispatcher.dispatch(call.id, call.global, call.name, call.args as JsonValue);
  if (!verdict.ok) session.fail({ kind: verdict.kind ?? 'protocol', message: verdict.message });
}

// What a backend's wire schema answers for one decoded frame (zod's safeParse result fits).
export type FrameParse =
  | { success: true; data: ProgramFrame | { type: 'ready' } | { type: 'boot-ack' } }
  | { success: false; error: { issues: readonly { message: string }[] } };

export interface RunConnection {
  dispatcher: CallDispatcher;
  // sends to the child until the run has settled
  send(text: string): void;
  // the program's calls go straight to a bindings host on the child's own connection (its boot says where)
  routed: boolean;
}

// A child as the run's connection sees it: frames in, text out.
export interface ConnectedChild {
  attach(handlers: { onFrame(text: string): void; onProtocolError(message: string): void }): void;
  send(text: string): void;
  // the token of the bindings host connection the child inherited, if any
  readonly bindingsToken?: string | undefined;
}

// How a backend's child speaks: its wire schema, how a valueless `done` reads, and its framing.
export interface ChildWire {
  parse: (value: unknown) => FrameParse;
  valueless: 'absent' | 'null';
  // the child's framing on its connections, which its wire decides, not its language: node-wire children (Node,
  // QuickJS, pyodide) send length-prefixed frames, the CPython runner newline-delimited lines
  codec: 'frames' | 'lines';
}

// Connects a child to its run, identically for both backends: every frame is decoded as hostile, checked against the
// backend's wire schema and applied; a second handshake frame is forged traffic.
export function connectRun(options: { session: RunState; child: ConnectedChild } & ChildWire): RunConnection {
  const { session, child, codec } = options;
  const send = (text: string): void => {
    if (session.outcome === undefined) child.send(text);
  };
  const hosted = session.spec.hosted;
  const token = child.bindingsToken;
  const routed = hosted !== undefined && hosted.routeCalls && token !== undefined;
  const pauses = session.spec.pauses === undefined ? undefined : linkPauses(session, session.spec.pauses);
  // with a bindings host the runtime sees only the calls sent after the host was lost: ids then skip the host's
  const dispatcher = session.createDispatcher({
    firstId: 1,
    sequence: routed ? 'increasing' : 'exact',
    // node-wire children read a paused call's wait (QuickJS moves its own deadline); the CPython wire has no such field
    sendReply: (id, reply, record) =>
      send(replyText(id, reply, codec === 'lines' ? undefined : record.pause?.pausedMs)),
    ...(pauses === undefined ? {} : { gate: pauses.gate }),
  });
  const onCall = routed ? routeToHost(session, hosted, token, codec, dispatcher, send, pauses) : undefined;
  const protocol = (message: string): void => session.fail({ kind: 'protocol', message });
  const onFrame = (text: string): void => {
    if (session.outcome !== undefined) return;
    let value = shortcutStringFrame(text) as unknown;
    if (value === undefined) {
      const decoded = decodeLossless(text);
      if (!decoded.ok) return protocol(`control frame is not lossless JSON (${decoded.reason})`);
      value = decoded.value;
    }
    const parsed = options.parse(value);
    // schema messages may quote the offending value, which is program text
    if (!parsed.success)
      return protocol(`malformed control frame: ${capText(parsed.error.issues[0]?.message ?? 'invalid')}`);
    const frame = parsed.data;
    if (frame.type === 'ready' || frame.type === 'boot-ack') return protocol(`second ${frame.type} frame`);
    applyProgramFrame(session, dispatcher, frame, options.valueless, onCall);
  };
  child.attach({ onFrame, onProtocolError: protocol });
  return { dispatcher, send, routed };
}

type CallFrame = Extract<ProgramFrame, { type: 'call' }>;

// Opens the run on its bindings host when the child holds a connection to it; the host's call reports become the
// run's call records, and the result waits (bounded) for its last answers once the run settled.
// Returns where the child's control-channel calls go: while the host serves the run, a call there is either the child
// falling back after the host's end (the runtime learns of it a moment later) or forged, possibly repeating an id the
// host took: such calls wait until the host is lost, and an id the host took (before or after) is a protocol violation,
// so the genuine call is served once and the repeat is refused.
function routeToHost(
  session: RunState,
  hosted: HostedBindings,
  token: string,
  codec: 'frames' | 'lines',
  dispatcher: CallDispatcher,
  send: (text: string) => void,
  pauses: RunPauseLink | undefined,
): (call: CallFrame) => void {
  const held = new Map<number, CallFrame>();
  const repeated = (id: number, by: string): void =>
    session.fail({ kind: 'protocol', message: `call id ${id} repeated (${by} already took it)` });
  const link: HostedRunLink = hosted.begin({
    token,
    codec,
    maxPendingCalls: session.spec.maxPendingCalls,
    ...(session.spec.maxCalls === undefined ? {} : { maxCalls: session.spec.maxCalls }),
    startedAt: session.startedAt,
    // one bounded call log for the run: the host's calls and any the runtime answers after losing it
    log: dispatcher.log,
    sendToChild: send,
    fail: (failure) => session.fail(failure),
    ...(pauses === undefined || session.spec.pauses === undefined
      ? {}
      : { gate: session.spec.pauses.gate, decide: pauses.decide }),
    onHostCall: (id) => {
      if (held.has(id)) repeated(id, 'a call on the control channel');
    },
    onLost: () => {
      const calls = [...held.values()];
      held.clear();
      for (const call of calls) if (session.outcome === undefined) dispatchCall(session, dispatcher, call);
    },
  });
  session.finishing.push(session.settled.then(() => link.close()));
  return (call) => {
    if (link.lost !== undefined) return dispatchCall(session, dispatcher, call);
    if (held.has(call.id)) return repeated(call.id, 'a call on the control channel');
    if (link.knowsCall(call.id)) return repeated(call.id, 'the bindings host');
    if (held.size >= session.spec.maxPendingCalls)
      return session.fail({
        kind: 'protocol',
        message: `more than ${session.spec.maxPendingCalls} binding calls in flight`,
      });
    held.set(call.id, call);
  };
}
