import type { HostedBindings } from './protocol/hosted-bindings.js';
import type { DeterministicSettings } from './protocol/binding-call.js';
import type { BindingNamespace } from './protocol/binding-namespace.js';
import type { Language, RunResult } from './protocol/run-result.js';
import type { RunPauses } from './protocol/call-pause.js';

export type { BindingFunction, BindingNamespace, CallContext, ErrorClassSpec } from './protocol/binding-namespace.js';

export type SandboxLevel = 'required' | 'best-effort' | 'off';

// Which engine runs a program: the native child (Node, CPython) under the OS sandbox, the WebAssembly engine
// (QuickJS, Pyodide) whose isolation needs nothing from the OS, or `auto`: native where the OS sandbox proved
// itself on this host, else WebAssembly (runtime/engine/choose-engine.ts).
export type EngineChoice = 'auto' | 'native' | 'wasm';

export interface LogEntry {
  text: string;
  stream: 'stdout' | 'stderr';
}

export type { DeterministicSettings };

export interface CodeRunRequest {
  language: Language;
  program: string;
  bindings?: BindingNamespace[];
  timeoutMs?: number;
  maxOutputBytes?: number;
  memoryMb?: number;
  // size of the sandbox's tmpfs /tmp (the program's temp dir and working directory)
  tmpMb?: number;
  cwd?: string;
  sandbox?: SandboxLevel;
  // default: the runtime's defaults.engine, else 'native' (front ends default to 'auto')
  engine?: EngineChoice;
  signal?: AbortSignal;
  onLog?: (entry: LogEntry) => void;
  maxPendingCalls?: number;
  // binding calls the program may make in all; the next one ends the run as `call-limit` (default: no cap)
  maxCalls?: number;
  deterministic?: DeterministicSettings;
  // a bindings host lease (from a session): the program's calls go straight to that host
  hosted?: HostedBindings;
  // calls held before their handler runs (breakpoints, approvals, a fork's prefix) and who decides them
  pauses?: RunPauses;
}

// A validated request with every default applied; produced only by `resolve`, frozen, and accepted by `run`/`warm`
// only as issued (a spread copy or a literal is misuse).
export interface CodeRunSpec {
  readonly resolved: true;
  readonly language: Language;
  readonly program: string;
  readonly bindings: readonly BindingNamespace[];
  readonly timeoutMs: number;
  readonly maxOutputBytes: number;
  readonly memoryMb: number;
  readonly tmpMb: number;
  readonly cwd: string;
  readonly sandbox: SandboxLevel;
  readonly engine: EngineChoice;
  readonly signal: AbortSignal | undefined;
  readonly onLog: ((entry: LogEntry) => void) | undefined;
  readonly maxPendingCalls: number;
  readonly maxCalls: number | undefined;
  readonly deterministic?: DeterministicSettings;
  readonly hosted?: HostedBindings;
  readonly pauses?: RunPauses;
}

export interface RuntimeOptions {
  // Node executable for TypeScript programs (default: the host's own process.execPath)
  nodePath?: string;
  // CPython executable for Python programs (default: python3 on PATH, resolved once)
  pythonPath?: string;
  // Pre-started, never-used processes kept per language for the settings of its latest run (default 0 = always
  // cold start). A run whose launch settings match (interpreter, memoryMb, sandbox plan, and cwd unless bubblewrap
  // hides it) takes one instead of starting a process, and its replacement starts as the run begins; the first run of
  // new settings is cold.
  // Worth 1 for interactive hosts (the extension, `ptc notebook`); a one-shot `ptc run` should leave it at 0.
  spares?: number;
  // bubblewrap executable for the OS sandbox (default: `bwrap` on PATH); null runs without it, as on a host that lacks
  // it: best-effort then reports `partial`, required fails
  bubblewrapPath?: string | null;
  defaults?: Partial<
    Pick<
      CodeRunSpec,
      'timeoutMs' | 'maxOutputBytes' | 'memoryMb' | 'tmpMb' | 'sandbox' | 'engine' | 'maxPendingCalls' | 'maxCalls'
    >
  >;
}

export interface Runtime {
  resolve(request: CodeRunRequest): CodeRunSpec;
  run(spec: CodeRunSpec): Promise<RunResult>;
  // Starts spare processes for runs like `spec` ahead of the first one; true once one is ready
  // (false when `spares` is 0, the language has no spares, or none could start). Never runs the program.
  warm(spec: CodeRunSpec): Promise<boolean>;
  // Stops every run and kills every idle spare.
  dispose(): Promise<void>;
}
