import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { locateAsset } from '../assets/locate.js';
import { encodeFrame, FrameDecoder } from '../channel/frame-codec.js';
import { LIMITS } from '../contract/limits.js';
import { decodeLossless } from '../json/lossless.js';
import { captureLines } from '../output/pipe-lines.js';
import { parseCallsFrame } from '../protocol/call-report-codec.js';
import { launchChild, type ExitInfo, type LaunchedChild } from '../process/launch.js';
import { CHECK_MS, RESPONSIVE_MS, SHUTDOWN_GRACE_MS, UNRESPONSIVE_MS } from './limits.js';
import { z } from 'zod';
import { StartedCallSchema, type StartedCall } from '../protocol/binding-call.js';
import { FLIGHT_RECORD, FromHostFrameSchema, type FromHostFrame, type ToHostFrame } from './wire.js';
import { settlesWithin, within } from '../process/timers.js';

const FlightLineSchema = z.object({ run: z.number().int().positive(), call: StartedCallSchema }).strict();

// A line of the bindings' own console output longer than this is passed on in pieces.
const MAX_LOG_LINE = 64 * 1024;
// The bindings' output is the user's code's: a flood is passed on at this many lines a second, the rest counted.
const MAX_LOG_LINES_PER_SECOND = 200;

// How the process ended, as the runtime saw it.
export type HostEnd =
  | { kind: 'exited'; exit: ExitInfo }
  // no heartbeat for UNRESPONSIVE_MS: a handler blocks the event loop; the process was killed
  | { kind: 'unresponsive' }
  // it sent bytes that are not the protocol; the process was killed
  | { kind: 'broken'; message: string }
  // the runtime stopped it (restart, dispose)
  | { kind: 'stopped' };

// A started call the host recorded but had not reported when it ended.
export interface FlightEntry {
  run: number;
  call: StartedCall;
}

export interface HostProcessOptions {
  modulePath: string;
  cwd: string;
  onFrame(frame: FromHostFrame): void;
  onLog(stream: 'stdout' | 'stderr', text: string): void;
  // once, however the process ended, with the calls it had started but not reported
  onEnd(end: HostEnd, flight: FlightEntry[]): void;
}

// Bounds on reading a dead host's flight record (it is the user's process's file: hostile).
const MAX_FLIGHT_BYTES = 64 * 1024 * 1024;
// a process that does not go away after SIGKILL is reported ended anyway
const KILL_WAIT_MS = 2_000;

let entryPath: string | undefined;

// The built host entry; missing only when the runtime was not built.
export function hostEntry(): string | undefined {
  entryPath ??= locateAsset('runtime/bindings-host.mjs');
  return entryPath;
}

// One bindings host process: spawned in its own process group (its MCP servers and whatever its handlers start die
// with it), watched by heartbeat, its frames decoded as hostile, its console output passed on line by line.
export class HostProcess {
  readonly socketPath: string;
  readonly #dir: string;
  readonly #child: LaunchedChild;
  readonly #options: HostProcessOptions;
  readonly #decoder = new FrameDecoder(LIMITS.maxFrameBytes);
  readonly closed: Promise<ExitInfo>;
  #watchdog: NodeJS.Timeout | undefined;
  #killWait: NodeJS.Timeout | undefined;
  #silentChecks = 0;
  #heard = false;
  #lastHeard = performance.now();
  // why the runtime ended it, decided before the process is gone
  #reason: HostEnd | undefined;
  #end: HostEnd | undefined;
  #lastStderr = '';

  // Throws only if the process cannot be launched at all.
  constructor(options: HostProcessOptions) {
    const entry = hostEntry();
    if (entry === undefined)
      throw new Error('the bindings host (runtime/bindings-host.mjs) is missing: run `npm run build`');
    this.#options = options;
    this.#dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-host-'));
    this.socketPath = path.join(this.#dir, 's');
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
    // the editor's own executable runs as plain Node (a no-op for node itself)
    env.ELECTRON_RUN_AS_NODE = '1';
    try {
      // source maps: an error in a handler points at the module's own file and line, not the bundle's
      this.#child = launchChild({
        argv: [process.execPath, '--enable-source-maps', entry],
        cwd: options.cwd,
        env,
        extraPipes: 1,
      });
    } catch (error) {
      fs.rmSync(this.#dir, { recursive: true, force: true });
      throw error;
    }
    const budget = (): number => MAX_LOG_LINE;
    const log = rateLimited(options.onLog);
    captureLines(this.#child.stdout, budget, (line) => log('stdout', line));
    captureLines(this.#child.stderr, budget, (line) => {
      if (line.trim().length > 0) this.#lastStderr = line;
      log('stderr', line);
    });
    this.#channel.on('data', (chunk: Buffer) =>
      this.#decoder.push(chunk, (event) =>
        event.kind === 'frame' ? this.#receive(event.text) : this.#broken(event.message),
      ),
    );
    this.closed = this.#child.closed;
    void this.#child.spawnError.then((error) =>
      options.onLog('stderr', `could not start the bindings host: ${error.message}`),
    );
    void this.closed.then((exit) => {
      this.#stopWatchdog();
      const flight = readFlightRecord(path.join(this.#dir, FLIGHT_RECORD));
      fs.rmSync(this.#dir, { recursive: true, force: true });
      this.#finish(this.#reason ?? { kind: 'exited', exit }, flight);
    });
  }

  get pid(): number | undefined {
    return this.#child.pid;
  }

  // set once the process is gone (or the runtime gave up waiting for it)
  get ended(): HostEnd | undefined {
    return this.#end;
  }

  // It beat recently: its event loop is free (a handler in a synchronous loop blocks the beat).
  get responsive(): boolean {
    return this.#end === undefined && this.#reason === undefined && performance.now() - this.#lastHeard < RESPONSIVE_MS;
  }

  // The started calls it recorded but has not reported (readable while it lives).
  readFlight(): FlightEntry[] {
    return readFlightRecord(path.join(this.#dir, FLIGHT_RECORD));
  }

  // The last non-empty line the host wrote to stderr (an uncaught error's message, usually).
  get lastError(): string {
    return this.#lastStderr;
  }

  send(frame: ToHostFrame): void {
    if (this.#reason !== undefined || this.#end !== undefined) return;
    this.#channel.write(encodeFrame(JSON.stringify(frame)));
  }

  // Starts judging liveness (after the module loaded: importing it may block for a while).
  watch(): void {
    if (this.#watchdog !== undefined || this.#reason !== undefined || this.#end !== undefined) return;
    this.#silentChecks = 0;
    // checks, not wall time: a runtime whose own loop was blocked reads the pending beats before its next check
    this.#watchdog = setInterval(() => {
      if (this.#heard) {
        this.#heard = false;
        this.#silentChecks = 0;
        return;
      }
      if (++this.#silentChecks * CHECK_MS >= UNRESPONSIVE_MS) this.#endWith({ kind: 'unresponsive' });
    }, CHECK_MS);
    this.#watchdog.unref();
  }

  // Asks the host to stop its MCP servers and exit; kills the process group if it has not within the grace time.
  async stop(): Promise<void> {
    if (this.#end !== undefined) return;
    const first = this.#reason === undefined;
    // a host stuck in a handler cannot shut down gracefully: no grace to wait for
    const graceful = first && this.responsive;
    this.#reason ??= { kind: 'stopped' };
    this.#stopWatchdog();
    if (first) this.#channel.write(encodeFrame('{"type":"shutdown"}'));
    const exited = graceful && (await settlesWithin(this.closed, SHUTDOWN_GRACE_MS));
    if (!exited) this.#endWith(this.#reason);
    await within(this.closed, KILL_WAIT_MS, undefined);
  }

  // Kills the process group now; `unresponsive`: it was judged stuck (by the watchdog or a missed interrupt).
  kill(reason: 'stopped' | 'unresponsive' = 'stopped'): void {
    this.#endWith({ kind: reason });
  }

  get #channel(): Readable & Writable {
    return this.#child.pipes[0] as Readable & Writable;
  }

  #receive(text: string): void {
    if (this.#end !== undefined || (this.#reason !== undefined && this.#reason.kind !== 'stopped')) return;
    this.#heard = true;
    this.#lastHeard = performance.now();
    const decoded = decodeLossless(text);
    if (!decoded.ok)
      return this.#broken(`the bindings host sent a frame that is not lossless JSON (${decoded.reason})`);
    const value = decoded.value;
    if (value !== null && typeof value === 'object' && !Array.isArray(value) && value.type === 'calls') {
      const calls = parseCallsFrame(value);
      return calls.ok ? this.#options.onFrame(calls.frame) : this.#broken(`the bindings host sent a ${calls.message}`);
    }
    const parsed = FromHostFrameSchema.safeParse(value);
    if (!parsed.success)
      return this.#broken(`the bindings host sent a malformed frame: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    if (parsed.data.type === 'heartbeat') return;
    // the decoded value itself (checked strictly above): a copy would turn a `__proto__` key into a prototype
    this.#options.onFrame(value as FromHostFrame);
  }

  #broken(message: string): void {
    this.#endWith({ kind: 'broken', message });
  }

  // Kills the process group; its end is reported once it is gone (with its flight record), or after KILL_WAIT_MS.
  #endWith(reason: HostEnd): void {
    if (this.#end !== undefined) return;
    this.#reason ??= reason;
    this.#stopWatchdog();
    this.#child.killTree();
    // held open (see process/timers.ts): someone may be waiting for this end; cleared once the host's own exit reports
    // it
    this.#killWait = setTimeout(() => this.#finish(this.#reason ?? reason, []), KILL_WAIT_MS);
  }

  #finish(end: HostEnd, flight: FlightEntry[]): void {
    if (this.#end !== undefined) return;
    this.#end = end;
    clearTimeout(this.#killWait);
    this.#stopWatchdog();
    this.#options.onEnd(end, flight);
  }

  #stopWatchdog(): void {
    clearInterval(this.#watchdog);
    this.#watchdog = undefined;
  }
}

// The started calls a dead host recorded but never reported; anything malformed is skipped.
function readFlightRecord(file: string): FlightEntry[] {
  let text: string;
  try {
    const fd = fs.openSync(file, 'r');
    try {
      const size = Math.min(fs.fstatSync(fd).size, MAX_FLIGHT_BYTES);
      const buffer = Buffer.alloc(size);
      fs.readSync(fd, buffer, 0, size, 0);
      text = buffer.toString('utf8');
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return [];
  }
  const entries: FlightEntry[] = [];
  for (const line of text.split('\n')) {
    if (line.length === 0) continue;
    const decoded = decodeLossless(line);
    const parsed = decoded.ok ? FlightLineSchema.safeParse(decoded.value) : undefined;
    if (parsed?.success) entries.push(parsed.data);
  }
  return entries;
}

// Passes lines on up to MAX_LOG_LINES_PER_SECOND; the lines over it in a second are summarised in one line.
function rateLimited(onLog: HostProcessOptions['onLog']): HostProcessOptions['onLog'] {
  let windowStart = 0;
  let passed = 0;
  let dropped = 0;
  const summarise = (): void => {
    if (dropped > 0)
      onLog(
        'stderr',
        `… ${dropped} more line(s) of bindings output dropped (over ${MAX_LOG_LINES_PER_SECOND} a second)`,
      );
    dropped = 0;
  };
  return (stream, text) => {
    const now = performance.now();
    if (now - windowStart >= 1_000) {
      summarise();
      windowStart = now;
      passed = 0;
    }
    if (passed < MAX_LOG_LINES_PER_SECOND) {
      passed++;
      onLog(stream, text);
      return;
    }
    // the first line over the limit schedules the summary for the end of this second
    if (dropped++ === 0) setTimeout(summarise, Math.max(0, 1_000 - (now - windowStart))).unref();
  };
}
