// The wasm engines in a browser (vscode.dev, github.dev): each run in a fresh dedicated web worker, TypeScript in
// QuickJS (run-worker.ts), Python in Pyodide (pyodide-worker.ts), supervised here with the same run state, frame
// handling, call dispatcher and deadline as the Node engines. Needs nothing from Node: the web extension embeds it.
import type { CodeRunSpec } from '../../api.js';
import { resolveRequest } from '../../contract/resolve.js';
import { abortMessage, failedBeforeSpawn } from '../../engine/early-results.js';
import { armDeadline } from '../../engine/deadline.js';
import { connectRun } from '../../engine/program-frames.js';
import { RunState } from '../../engine/run-state.js';
import { bootFrame, ChildFrameSchema } from '../../protocol/node-wire.js';
import type { RunFailure, RunResult, SandboxReport } from '../../protocol/run-result.js';
import { stripFailure, type StripResult } from '../../typescript/strip-core.js';
import { judgeWasmProbe, type WasmVerdict } from '../wasm-proof.js';
import { wasmReport } from '../wasm-report.js';
import { QUICKJS_MECHANISM, quickjsProbeProgram } from '../quickjs/probe-program.js';
import { PYODIDE_MECHANISM, pyodideProbeProgram } from '../pyodide/probe-program.js';
import { errorMessage } from '../../output/error-message.js';

export type WebEngineName = 'quickjs' | 'pyodide';

// What the browser gives a run: a dedicated worker, seen through the little this engine uses of it.
export interface RunWorker {
  postMessage(message: string): void;
  terminate(): void;
  onmessage: ((event: { data: unknown }) => void) | null;
  onerror: ((event: { message?: string; preventDefault?(): void }) => void) | null;
}

export interface WebEngineOptions {
  // a fresh worker of the engine (its first message is ready, or a done frame saying why it is not); a promise when
  // the worker first loads what it runs on (an interpreter), resolved once it did: that load is not the program's
  // startup but the engine's, bounded by LOAD_MS (rejects saying what is missing)
  startWorker(engine: WebEngineName): RunWorker | Promise<RunWorker>;
  // TypeScript to JavaScript (amaro, as loaded by the embedding)
  strip(program: string): Promise<StripResult>;
}

// A worker that has not loaded its engine by then is broken, not slow (Pyodide's first load on a busy machine
// included).
const LOAD_MS = 180_000;

// The worker once it loaded, or why the run ends before it ran: Stop, the load bound, or the engine's problem. A worker
// that loads after the run gave up on it is ended.
async function loaded(
  started: RunWorker | Promise<RunWorker>,
  signal: AbortSignal | undefined,
  what: string,
): Promise<{ worker: RunWorker } | { failure: RunFailure }> {
  if (!(started instanceof Promise)) return { worker: started };
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const giveUp = new Promise<{ failure: RunFailure }>((resolve) => {
    timer = setTimeout(
      () => resolve({ failure: { kind: 'worker-exit', message: `${what} did not load within ${LOAD_MS} ms` } }),
      LOAD_MS,
    );
    onAbort = () => resolve({ failure: { kind: 'abort', message: abortMessage(signal) } });
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) onAbort();
  });
  const outcome = await Promise.race([
    started.then(
      (worker) => ({ worker }),
      (error: unknown) => ({
        failure: {
          kind: 'worker-exit',
          message: `could not start ${what}: ${errorMessage(error)}`,
        },
      }),
    ),
    giveUp,
  ]);
  clearTimeout(timer);
  if (onAbort !== undefined) signal?.removeEventListener('abort', onAbort);
  if ('failure' in outcome)
    void started.then(
      (late) => late.terminate(),
      () => undefined,
    );
  return outcome as { worker: RunWorker } | { failure: RunFailure };
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

const MECHANISM: Record<WebEngineName, string> = { quickjs: QUICKJS_MECHANISM, pyodide: PYODIDE_MECHANISM };

// The program asked to exit (Python's sys.exit): the worker's one frame outside the Node child's wire, since a
// child's exit code has no frame there.
const EXIT_FRAME = /^\{"type":"exit","code":(\d{1,3})\}$/;

// The engine for one web extension host: proves its isolation once, then runs each program in a fresh worker.
export class WebEngine {
  readonly #proofs = new Map<WebEngineName, Promise<WasmVerdict>>();

  constructor(private readonly options: WebEngineOptions) {}

  // The engine's probe program run in a worker like any other: every way out it tries must be refused.
  proof(engine: WebEngineName = 'quickjs'): Promise<WasmVerdict> {
    let proof = this.#proofs.get(engine);
    if (proof === undefined) {
      proof = this.#prove(engine);
      this.#proofs.set(engine, proof);
    }
    return proof;
  }

  async #prove(engine: WebEngineName): Promise<WasmVerdict> {
    const language = engine === 'quickjs' ? 'typescript' : 'python';
    const program = engine === 'quickjs' ? quickjsProbeProgram('/etc/hostname') : pyodideProbeProgram('/etc/hostname');
    const code = await this.#compile(language, program);
    if (!code.ok) return { ok: false, problem: `the probe program did not compile: ${code.message}` };
    // the first load of an interpreter in a fresh browser can take a while on a busy machine
    const spec = resolveRequest({ language, program: '', cwd: '/', timeoutMs: 120_000 });
    const result = await this.#runCode(spec, code.code, WORKER_LAYER, engine);
    return judgeWasmProbe(result.value, result.error?.message);
  }

  // TypeScript is stripped in the extension host; Python goes to the guest as it is.
  #compile(language: 'typescript' | 'python', program: string): Promise<StripResult> {
    return language === 'python' ? Promise.resolve({ ok: true, code: program }) : this.options.strip(program);
  }

  // A run this engine will not start, with the reason (a cell that asks for what the browser cannot give).
  refuse(spec: CodeRunSpec, message: string): RunResult {
    return failedBeforeSpawn(spec, WORKER_LAYER, { kind: 'sandbox-unavailable', message });
  }

  async run(spec: CodeRunSpec): Promise<RunResult> {
    const engine: WebEngineName = spec.language === 'python' ? 'pyodide' : 'quickjs';
    // the program runs while the engine's first probe does, each in a worker of its own (the probe changes nothing
    // about how a program runs, only what its report may claim): the report waits for the verdict
    const verdict = this.proof(engine);
    const reported = async (result: RunResult): Promise<RunResult> => ({
      ...result,
      sandbox: wasmReport(WORKER_LAYER, MECHANISM[engine], engine, await verdict),
    });
    if (spec.signal?.aborted)
      return reported(failedBeforeSpawn(spec, WORKER_LAYER, { kind: 'abort', message: abortMessage(spec.signal) }));
    const code = await this.#compile(spec.language, spec.program);
    if (!code.ok) return reported(failedBeforeSpawn(spec, WORKER_LAYER, stripFailure(code)));
    return reported(await this.#runCode(spec, code.code, WORKER_LAYER, engine));
  }

  async #runCode(spec: CodeRunSpec, code: string, report: SandboxReport, engine: WebEngineName): Promise<RunResult> {
    const what = `the ${engine} engine's web worker`;
    let started: RunWorker | Promise<RunWorker>;
    try {
      started = this.options.startWorker(engine);
    } catch (error) {
      return failedBeforeSpawn(spec, report, {
        kind: 'worker-exit',
        message: `could not start ${what}: ${errorMessage(error)}`,
      });
    }
    const load = await loaded(started, spec.signal, what);
    if ('failure' in load) return failedBeforeSpawn(spec, report, load.failure);
    const worker = load.worker;
    const session = new RunState(spec, report);
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
            const exit = EXIT_FRAME.exec(event.data);
            if (exit !== null && session.outcome === undefined)
              return session.fail({
                kind: 'worker-exit',
                message: `The ${engine} engine's web worker exited before completing (code ${Number(exit[1]) & 0xff})`,
              });
            handlers.onFrame(event.data);
          };
        },
        send: (text) => worker.postMessage(text),
      },
      parse: (value) => ChildFrameSchema.safeParse(value),
      valueless: 'absent',
      codec: 'frames',
    });
    worker.onerror = (event) => {
      event.preventDefault?.();
      session.fail({
        kind: 'worker-exit',
        message: `${what} failed: ${event.message ?? 'an error without a message'}`,
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
    const disarm = armDeadline(session, spec, handedOver, what);
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
