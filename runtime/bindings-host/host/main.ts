// Entry of the bindings host process (built to dist/runtime/bindings-host.mjs): the one process that imports a
// bindings module, owns its MCP servers and runs its handlers, so a handler that loops, exits or throws takes
// down only this process. The runtime that spawned it talks to it over fd 3; program children connect to its
// Unix socket and send their calls here directly.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { encodeFrame, FrameDecoder } from '../../channel/frame-codec.js';
import { BindingsModuleError, type BindingsModule } from '../../bindings/module-format.js';
import { loadBindingsModule, schemaChecks } from '../../bindings/module-loader.js';
import { LIMITS } from '../../contract/limits.js';
import { decodeLossless } from '../../json/lossless.js';
import { CassetteSchema } from '../../replay/cassette-format.js';
import { cassetteDrift } from '../../replay/drift.js';
import { FLIGHT_RECORD, HOST_CONTROL_FD, ToHostFrameSchema, type OpenRunFrame, type ToHostFrame } from '../wire.js';
import { ChildConnection } from './child-connection.js';
import { describeModule } from './describe.js';
import { ServedRun } from './serve-run.js';
import { HEARTBEAT_MS } from '../limits.js';
import { errorMessage } from '../../output/error-message.js';
import { within } from '../../process/timers.js';

const sleeper = new Int32Array(new SharedArrayBuffer(4));

// Writes frames to the runtime synchronously: a note written just before a handler loops forever is already in the
// runtime's pipe. Every host → runtime write goes through here, so writes never interleave.
function writeFramesSync(fd: number, texts: readonly string[]): void {
  if (texts.length === 0) return;
  const buffer = texts.length === 1 ? encodeFrame(texts[0] as string) : Buffer.concat(texts.map(encodeFrame));
  let offset = 0;
  while (offset < buffer.length) {
    try {
      offset += fs.writeSync(fd, buffer, offset, buffer.length - offset);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // the runtime went away: nobody is listening any more
      if (code === 'EPIPE' || code === 'EBADF') return;
      if (code !== 'EAGAIN') throw error;
      // the runtime is behind: wait a moment instead of spinning
      Atomics.wait(sleeper, 0, 0, 1);
    }
  }
}

const send = (text: string): void => writeFramesSync(HOST_CONTROL_FD, [text]);
const frame = (value: Record<string, unknown>): void => send(JSON.stringify(value));

let module: BindingsModule | undefined;
let server: net.Server | undefined;
let socketPath: string | undefined;
let stopping = false;
// hello'd child connections not yet claimed by a run, and runs opened before their connection said hello
const unclaimed = new Map<string, ChildConnection>();
const awaiting = new Map<string, OpenRunFrame>();
const runs = new Map<number, ServedRun>();

// The flight record (engine of "…while tools.x was running" when this process hangs or is killed): started calls
// not yet reported, one JSON line each, in a file of this host's private dir that the runtime reads after the end.
let flightFd: number | undefined;
let truncating = false;

const notes = {
  write: send,
  record(lines: string): void {
    if (flightFd === undefined || lines.length === 0) return;
    try {
      fs.writeSync(flightFd, lines);
    } catch {
      // a full disk loses only the names in a crash message
    }
  },
  reported(): void {
    if (flightFd === undefined || truncating) return;
    truncating = true;
    try {
      // every run's started calls reach the runtime before the record is cleared
      for (const run of runs.values()) run.flush();
      fs.ftruncateSync(flightFd, 0);
    } catch {
      // see record()
    } finally {
      truncating = false;
    }
  },
};

function serve(open: OpenRunFrame, connection: ChildConnection): void {
  if (module === undefined) return;
  const loaded = module;
  runs.set(
    open.run,
    new ServedRun({
      open,
      module: loaded,
      connection,
      notes,
      warn: (message) => frame({ type: 'warning', run: open.run, message }),
    }),
  );
}

function onHello(connection: ChildConnection): void {
  const token = connection.token as string;
  const open = awaiting.get(token);
  if (open !== undefined) {
    awaiting.delete(token);
    return serve(open, connection);
  }
  unclaimed.set(token, connection);
  connection.socket.once('close', () => {
    if (unclaimed.get(token) === connection) unclaimed.delete(token);
  });
}

async function load(file: string): Promise<void> {
  // warnings of the load (a tool left out) follow the 'loaded' frame; later ones (a server lost) go out at once
  let held: string[] | undefined = [];
  const onWarning = (message: string): void => {
    if (held !== undefined) held.push(message);
    else frame({ type: 'warning', message });
  };
  try {
    module = await loadBindingsModule(file, { mcp: 'optional', onWarning });
  } catch (error) {
    const message =
      error instanceof BindingsModuleError
        ? error.message
        : `bindings module ${file} failed to load: ${errorMessage(error)}`;
    frame({ type: 'load-failed', message });
    return;
  }
  frame({ type: 'loaded', module: describeModule(module, (message) => frame({ type: 'warning', message })) });
  const pending = held;
  held = undefined;
  for (const message of pending) frame({ type: 'warning', message });
}

function listen(path: string): Promise<void> {
  socketPath = path;
  return new Promise((resolve, reject) => {
    server = net.createServer((socket) => void new ChildConnection(socket, onHello));
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
}

async function handle(message: ToHostFrame): Promise<void> {
  switch (message.type) {
    case 'init':
      frame({ type: 'loading' });
      try {
        flightFd = fs.openSync(path.join(path.dirname(message.socketPath), FLIGHT_RECORD), 'a', 0o600);
        await listen(message.socketPath);
      } catch (error) {
        frame({
          type: 'load-failed',
          message: `the bindings host could not listen for programs: ${errorMessage(error)}`,
        });
        return;
      }
      return load(message.module);
    case 'open-run': {
      const connection = unclaimed.get(message.token);
      if (connection === undefined) return void awaiting.set(message.token, message);
      unclaimed.delete(message.token);
      return serve(message, connection);
    }
    case 'close-run': {
      for (const [token, open] of awaiting) if (open.run === message.run) awaiting.delete(token);
      runs.get(message.run)?.close();
      runs.delete(message.run);
      return frame({ type: 'run-closed', run: message.run });
    }
    case 'interrupt': {
      let calls = 0;
      for (const run of runs.values()) calls += run.interrupt('was interrupted');
      return frame({ type: 'interrupted', calls });
    }
    case 'drift': {
      const cassette = CassetteSchema.safeParse(message.cassette);
      const warnings = module !== undefined && cassette.success ? cassetteDrift(cassette.data, module) : [];
      return frame({ type: 'drift', request: message.request, warnings });
    }
    case 'decide':
      return runs.get(message.run)?.decide(message.id, message.decision);
    case 'check-answer':
      return frame({ type: 'answer-checked', request: message.request, problems: answerProblems(message) });
    case 'shutdown':
      return stop(0);
  }
}

// Where a value breaks the output schema of the function it would answer (none without a schema).
function answerProblems(check: { global: string; name: string; value: unknown }): string[] {
  const ns = module?.namespaces[check.global];
  if (ns === undefined || !Object.prototype.hasOwnProperty.call(ns.functions, check.name))
    return [`no function ${check.global}.${check.name} in the bindings module`];
  const declaration = ns.functions[check.name];
  return declaration === undefined ? [] : (schemaChecks(declaration).output?.(check.value) ?? []);
}

// Stops the MCP servers (bounded: a server that ignores its closed stdin is killed with this process group).
async function stop(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  for (const run of runs.values()) run.close();
  server?.close();
  if (socketPath !== undefined) fs.rmSync(socketPath, { force: true });
  const disposing = module?.dispose().catch(() => undefined);
  await within(Promise.resolve(disposing), 1_000, undefined);
  process.exit(code);
}

function main(): void {
  const control = new net.Socket({ fd: HOST_CONTROL_FD, readable: true, writable: false });
  const decoder = new FrameDecoder(LIMITS.maxFrameBytes);
  control.on('data', (chunk: Buffer) =>
    decoder.push(chunk, (event) => {
      if (event.kind === 'error') return void stop(70);
      const decoded = decodeLossless(event.text);
      const parsed = decoded.ok ? ToHostFrameSchema.safeParse(decoded.value) : undefined;
      if (parsed === undefined || !parsed.success) return void stop(70);
      void handle(parsed.data);
    }),
  );
  // the runtime went away: nobody can use this process any more
  control.on('close', () => void stop(0));
  control.on('error', () => void stop(0));
  // silence is how the runtime tells a handler stuck in a synchronous loop from a slow one
  setInterval(() => send('{"type":"heartbeat"}'), HEARTBEAT_MS);
  // process.exit() in a handler, an uncaught error: what this process knows reaches the runtime before it ends
  process.on('exit', () => {
    for (const run of runs.values()) run.flush();
  });
}

main();
