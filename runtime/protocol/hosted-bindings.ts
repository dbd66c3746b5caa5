// The contract between the runtime and a bindings host (bindings-host/), as types: the lease a run holds, the
// connection a child inherits, and the link a run keeps to the host while it serves the run's calls.
import type net from 'node:net';
import type { BindingNamespace } from './binding-namespace.js';
import type { CallRecord } from './binding-call.js';
import type { CallDecision, CallGateSpec, PauseReason } from './call-pause.js';
import type { RunFailure } from './run-result.js';

// A program child's own connection to a bindings host, made before the child is spawned and inherited by it.
export interface ChildChannel {
  socket: net.Socket;
  token: string;
}

// What a run needs from a bindings host (runtime/bindings-host/): the program's calls go straight from the child
// to the host on a connection of their own; the runtime keeps supervising the run on its control channel.
export interface HostedBindings {
  // children connected to the same host process are interchangeable (part of the spare key)
  readonly channelKey: string;
  // false: the runtime serves this run's calls itself (a replay), the child's connection stays unused
  readonly routeCalls: boolean;
  // what the program sees: globals, function names, error classes (the functions answer only once the host is lost)
  readonly namespaces: BindingNamespace[];
  // resolves once a connection can be taken without waiting
  prepare(): Promise<void>;
  // a connected channel for a child being spawned now, or undefined when none is ready
  takeChannel(): ChildChannel | undefined;
  // whether takeChannel() would return a channel now
  channelReady(): boolean;
  // the run starts on a child holding `token`'s connection
  begin(options: HostedRunOptions): HostedRunLink;
  // how the host was lost while this lease's run used it ("bindings host exited with code 1"), or undefined
  lost(): string | undefined;
}

export interface HostedRunOptions {
  token: string;
  // the child's framing on its connection
  codec: 'frames' | 'lines';
  maxPendingCalls: number;
  // the run's call budget, enforced where the calls are dispatched (the host)
  maxCalls?: number;
  // the run's clock origin (performance.now() of this process)
  startedAt: number;
  // where the host's calls are recorded (the run's bounded call log)
  log: CallRecorder;
  // writes a frame to the child's control channel (failed calls and `bindings-lost` once the host is gone)
  sendToChild(text: string): void;
  // ends the run (a protocol violation reported by the host)
  fail(failure: RunFailure): void;
  // the host took call `id` (reported by it, or found in its flight record)
  onHostCall?(id: number): void;
  // the host can no longer serve the run (its calls then go to the runtime)
  onLost?(): void;
  // which calls the host holds before their handler runs, and who decides how each goes on
  gate?: CallGateSpec;
  decide?(call: CallRecord, reason: PauseReason): Promise<CallDecision>;
}

export interface HostedRunLink {
  // whether the host already took call `id` (reported, or written to its flight record and not reported yet)
  knowsCall(id: number): boolean;
  // why the host cannot serve the run any more, once it cannot
  readonly lost: string | undefined;
  // the run settled: handlers get their abort signal; resolves once the host reported its last answers (bounded)
  close(): Promise<void>;
}

// Where a hosted run's calls are recorded as the host reports them (the run's bounded call log, bindings/call-log.ts).
export interface CallRecorder {
  add(record: CallRecord): void;
  finished(record: CallRecord): void;
}
