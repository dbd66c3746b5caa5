// Entry of the pyodide engine's child process (built to dist/runtime/pyodide-child.cjs): a Node process on the same
// wire as the node and quickjs engines' children (node-wire.ts), whose program runs inside a fresh Pyodide interpreter
// (guest.ts, loaded before `ready`, so a spare holds one ready to run). argv[2] is Pyodide's folder.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { loadPyodide } from 'pyodide';
import { decodeLossless } from '../../json/lossless.js';
import type { BootFrame } from '../../protocol/node-wire.js';
import {
  callRouter,
  errorFrame,
  receiveFrames,
  receiveHostReplies,
  sendFrame,
} from '../../typescript/child/control.js';
import { describeThrown } from '../../typescript/child/describe-thrown.js';
import { loadGuest, makeGuestSnapshot, type PyodideGuest } from './guest.js';
import { driveGuest } from './guest-driver.js';
import { BUNDLED_GUEST_MODULES } from './guest-modules.js';
import { SNAPSHOT_FILE } from './snapshot-file.js';

const MiB = 1024 * 1024;
let settled = false;

function finishWithText(text: string): never {
  if (!settled) {
    settled = true;
    sendFrame(text);
  }
  return process.exit(0);
}

function engineFailed(error: unknown): never {
  // the interpreter itself failed (a trap, Pyodide's fatal error): still one result, naming the engine
  return finishWithText(errorFrame('exception', `the pyodide engine failed: ${describeThrown(error).message}`));
}

function run(
  guest: PyodideGuest,
  boot: BootFrame,
  onReply: (handler: (type: 'reply' | 'bindings-lost', text: string) => void) => void,
): void {
  const router = callRouter(boot.bindingsFd);
  if (boot.memoryMb !== undefined) guest.setMemoryLimit(boot.memoryMb * MiB);
  // calls go to the bindings host where the run has one; the end is this process's end
  const drive = driveGuest(guest, JSON.stringify(boot), {
    call: (frame) => router.send([frame]),
    log: (frame) => sendFrame(frame),
    done: (frame) => finishWithText(frame),
    exit: (code) => {
      settled = true;
      process.exit(code);
    },
    failed: engineFailed,
  });
  onReply((type, text) => {
    // the run's bindings host is gone: later calls go to the runtime on the control channel
    if (type === 'bindings-lost') router.lose();
    drive.reply(text);
  });
  if (boot.bindingsFd !== undefined)
    receiveHostReplies(
      boot.bindingsFd,
      (text) => {
        const decoded = decodeLossless(text);
        return decoded.ok ? decoded.value : undefined;
      },
      (reply) => drive.reply(JSON.stringify(reply)),
      () => undefined,
    );
}

// Emscripten's NODEFS reads Node's constants through process.binding at start, which Node's permission model refuses:
// the same constants come from the public modules while the interpreter loads.
async function withConstants<T>(load: () => Promise<T>): Promise<T> {
  const host = process as unknown as { binding: (name: string) => unknown };
  const binding = host.binding;
  host.binding = (name) =>
    name === 'constants' ? { fs: fs.constants, os: os.constants } : binding.call(process, name);
  try {
    return await load();
  } finally {
    host.binding = binding;
  }
}

// Node modules nothing in this process loads once the interpreter is up: Emscripten's system() spawns a shell through
// child_process and its sockets are WebSockets (ws), both reached by the CommonJS `require` of Pyodide's own module.
const REFUSED_MODULES = new Set(
  [
    ...['child_process', 'net', 'tls', 'http', 'http2', 'https', 'dgram', 'dns', 'worker_threads', 'cluster'],
    ...['inspector', 'module', 'vm', 'v8', 'wasi', 'ws', 'repl', 'trace_events'],
  ].flatMap((name) => [name, `node:${name}`]),
);

function refuseModules(): void {
  const loader = createRequire(__filename)('node:module') as {
    _load: (request: string, ...rest: unknown[]) => unknown;
  };
  const load = loader._load;
  loader._load = function refusingLoad(this: unknown, request: string, ...rest: unknown[]): unknown {
    if (REFUSED_MODULES.has(request)) throw new Error(`${request} is not available in the pyodide engine`);
    return Reflect.apply(load, this, [request, ...rest]);
  };
}

async function main(): Promise<void> {
  const folder = process.argv[2];
  if (folder === undefined) throw new Error("Pyodide's folder was not given");
  const indexURL = folder.endsWith('/') ? folder : `${folder}/`;
  // `<folder> --make-snapshot`: writes the folder's memory snapshot and exits (run by snapshot-cache.ts, no program)
  if (process.argv[3] === '--make-snapshot') {
    const bytes = await withConstants(() =>
      makeGuestSnapshot({ loadPyodide, indexURL, modules: BUNDLED_GUEST_MODULES }),
    );
    fs.writeFileSync(path.join(folder, SNAPSHOT_FILE), bytes);
    process.exit(0);
  }
  // a folder prepared by snapshot-cache.ts holds the interpreter's memory with the runner imported
  const snapshotPath = path.join(folder, SNAPSHOT_FILE);
  const snapshot = fs.existsSync(snapshotPath) ? fs.readFileSync(snapshotPath) : undefined;
  const guest = await withConstants(() =>
    loadGuest({
      loadPyodide,
      indexURL,
      modules: BUNDLED_GUEST_MODULES,
      // the interpreter's own descriptors 1 and 2 are this process's, read by the host like a native child's
      rawOutput: (stream, text) => void (stream === 'stdout' ? process.stdout : process.stderr).write(text),
      ...(snapshot === undefined ? {} : { snapshot }),
    }),
  );
  refuseModules();
  let replyHandler: ((type: 'reply' | 'bindings-lost', text: string) => void) | undefined;
  let booted = false;
  receiveFrames(
    (text) => {
      const decoded = decodeLossless(text);
      if (!decoded.ok || decoded.value === null || typeof decoded.value !== 'object') return;
      const frame = decoded.value as { type?: unknown };
      if (frame.type === 'boot' && !booted) {
        booted = true;
        try {
          run(guest, frame as unknown as BootFrame, (handler) => (replyHandler = handler));
        } catch (error) {
          engineFailed(error);
        }
      } else if ((frame.type === 'reply' || frame.type === 'bindings-lost') && replyHandler !== undefined) {
        replyHandler(frame.type, text);
      }
    },
    () => process.exit(settled ? 0 : 70),
  );
  sendFrame('{"type":"ready"}');
}

void main().catch((error: unknown) => {
  process.stderr.write(`the pyodide engine could not start: ${String(error)}\n`);
  process.exit(70);
});
