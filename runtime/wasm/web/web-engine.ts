// The quickjs engine in a browser (vscode.dev, github.dev): each run in a fresh dedicated web worker
// (run-worker.ts) holding a QuickJS context, supervised here with the same run state, frame handling, call
// dispatcher and deadline as the Node engines. Needs nothing from Node: the web extension embeds it.
import type { CodeRunSpec } from '../../api.js';
import { resolveRequest } from '../../contract/resolve.js';
import { abortMessage, failedBeforeSpawn } from '../../engine/early-results.js';
import { armDeadline } from '../../engine/deadline.js';
import { connectRun } from '../../engine/program-frames.js';
import { RunState } from '../../engine/run-state.js';
import { bootFrame, ChildFrameSchema } from '../../protocol/node-wire.js';
import type { RunResult, SandboxReport } from '../../protocol/run-result.js';
import { stripFailure, type StripResult } from '../../typescript/strip-core.js';
import { judgeWasmProbe, type WasmVerdict } from '../wasm-proof.js';
import { wasmReport } from '../wasm-report.js';
import { QUICKJS_MECHANISM, quickjsProbeProgram } from '../quickjs/probe-program.js';

// What the browser gives a run: a dedicated worker, seen through the little this engine uses of it.
export interface RunWorker {
  postMessage(message: string): void;
  terminate(): void;
  onmessage: ((event: { data: unknown }) => void) | null;
  onerror: ((event: { message?: string; preventDefault?(): void }) => void) | null;
}

export interface WebEngineOptions {
  // a fresh worker running dist/web-run-worker.js
  startWorker(): RunWorker;
  // TypeScript to JavaScript (amaro, as loaded by the embedding)
  strip(program: string): Promise<StripResult>;
}

// The worker's own confinement, beneath the wasm boundary: a browser worker has no files or processes to reach, but
// it could fetch (the guest inside QuickJS sees none of the worker's globals).
const WORKER_LAYER: SandboxReport = {
  network: 'allowed',
  filesystem: 'denied',
  childProcess: 'denied',
  enforcement: 'partial',
  mechanisms: ['browser web worker (no files or processes; a fresh worker per run)'],
};

export const PYTHON_IN_BROWSER =
  'Python cells cannot run in the browser yet: the pyodide engine (CPython compiled to WebAssembly) runs them on the desktop but is not part of the browser build. Run this cell in VS Code on the desktop, in a remote or in a Codespace; TypeScript cells run here in the quickjs engine.';

// The engine for one web extension host: proves its isolation once, then runs each program in a fresh worker.
export class WebEngine {
  #proof: Promise<WasmVerdict> | undefined;

  constructor(private readonly options: WebEngineOptions) {}

  // The probe program run in a worker like any other: every way out it tries must be refused.
  proof(): Promise<WasmVerdict> {
    this.#proof ??= this.#prove();
    return this.#proof;
  }

  async #prove(): Promise<WasmVerdict> {
    const stripped = await this.options.strip(quickjsProbeProgram('/etc/hostname'));
    if (!stripped.ok) return { ok: false, problem: `the probe program did not compile: ${stripped.message}` };
    const spec = resolveRequest({ language: 'typescript', program: '', cwd: '/', timeoutMs: 30_000 });
    const result = await this.#runStripped(spec, stripped.code, WORKER_LAYER);
    return judgeWasmProbe(result.value, result.error?.message);
  }

  // A run this engine will not start, with the reason (a cell that asks for what the browser cannot give).
  refuse(spec: CodeRunSpec, message: string): RunResult {
    return failedBeforeSpawn(spec, WORKER_LAYER, { kind: 'sandbox-unavailable', message });
  }

  async run(spec: CodeRunSpec): Promise<RunResult> {
    const verdict = await this.proof();
    const report = wasmReport(WORKER_LAYER, QUICKJS_MECHANISM, 'quickjs', verdict);
    if (spec.language === 'python') {
      const python: SandboxReport = { ...WORKER_LAYER, engine: 'pyodide', isolation: 'wasm' };
      return failedBeforeSpawn(spec, python, { kind: 'sandbox-unavailable', message: PYTHON_IN_BROWSER });
    }
    if (spec.signal?.aborted)
      return failedBeforeSpawn(spec, report, { kind: 'abort', message: abortMessage(spec.signal) });
    const stripped = await this.options.strip(spec.program);
    if (!stripped.ok) return failedBeforeSpawn(spec, report, stripFailure(stripped));
    return this.#runStripped(spec, stripped.code, report);
  }

  async #runStripped(spec: CodeRunSpec, code: string, report: SandboxReport): Promise<RunResult> {
    const session = new RunState(spec, report);
    let worker: RunWorker;
    try {
      worker = this.options.startWorker();
    } catch (error) {
      return failedBeforeSpawn(spec, report, {
        kind: 'worker-exit',
        message: `could not start the quickjs engine's web worker: ${String((error as Error)?.message ?? error)}`,
      });
    }
    let markReady: (ok: boolean) => void = () => undefined;
    const ready = new Promise<boolean>((resolve) => (markReady = resolve));
    const { send } = connectRun({
      session,
      child: {
        attach(handlers) {
          let first = true;
          worker.onmessage = (event) => {
            if (typeof event.data !== 'string')
              return handlers.onProtocolError('the run worker sent a message that is not a text frame');
            if (first) {
              first = false;
              if (event.data === '{"type":"ready"}') return markReady(true);
              // the engine failed before it was ready: its frame says why
              markReady(false);
            }
            handlers.onFrame(event.data);
          };
        },
        send: (text) => worker.postMessage(text),
      },
      parse: (value) => ChildFrameSchema.safeParse(value),
      valueless: 'absent',
    });
    worker.onerror = (event) => {
      event.preventDefault?.();
      session.fail({
        kind: 'worker-exit',
        message: `the quickjs engine's web worker failed: ${event.message ?? 'an error without a message'}`,
      });
    };
    const handedOver = ready.then((ok) => {
      if (!ok || session.outcome !== undefined) return false;
      const boot = bootFrame(spec, code, {
        tmpdir: '/',
        confined: true,
        timeoutMs: spec.timeoutMs,
        memoryMb: spec.memoryMb,
      });
      session.markHandedOver();
      send(JSON.stringify(boot));
      return true;
    });
    const disarm = armDeadline(session, spec, handedOver, "the quickjs engine's web worker");
    const onAbort = (): void => session.fail({ kind: 'abort', message: abortMessage(spec.signal) });
    spec.signal?.addEventListener('abort', onAbort, { once: true });
    if (spec.signal?.aborted) onAbort();
    await session.settled;
    disarm();
    spec.signal?.removeEventListener('abort', onAbort);
    // settled (done, deadline, Stop, a failed worker): the worker ends now, whatever the guest is doing
    worker.terminate();
    const dispatcher = session.dispatcher;
    if (dispatcher !== undefined) await dispatcher.drain(50);
    await Promise.all(session.finishing);
    return session.result();
  }
}
