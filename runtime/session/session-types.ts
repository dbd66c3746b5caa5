import type { EngineChoice, LogEntry, Runtime, SandboxLevel } from '../api.js';
import type { BindingsHost, BindingsHostStatus } from '../bindings-host/bindings-host.js';
import type { DescribedModule } from '../bindings-host/wire.js';
import type { WarningSink } from '../bindings/module-format.js';
import type { CallListener, CallStartListener } from '../bindings/observe.js';
import type { Language, RunResult } from '../protocol/run-result.js';
import type { PauseRequest } from './run-pauses.js';

// How one run's binding calls are served: by handlers (mock or live), recorded to a cassette, or replayed from one.
export type RunPlan =
  | { mode: 'mock' | 'live' }
  | { mode: 'record'; handlers: 'mock' | 'live'; cassettePath: string; cassetteName?: string; legacy?: LegacyCassette }
  | { mode: 'replay'; cassettePath: string; cassetteName?: string; legacy?: LegacyCassette };

// A notebook cell's cassette where the folder-wide layout (before cassettes were keyed by notebook) kept it: a replay
// reads it while the cell has no cassette of its own; a recording removes it unless another notebook still reads it.
export interface LegacyCassette {
  path: string;
  notebookFile: string;
  // the notebook's folder, when the cassette is under its own `.ptc/cassettes` (not a command's --record/--replay DIR)
  notebookDir?: string;
}

export type PlanMode = RunPlan['mode'];

export interface RunLimits {
  timeoutMs?: number;
  maxOutputBytes?: number;
  memoryMb?: number;
  // size of the sandbox's tmpfs
  tmpMb?: number;
  sandbox?: SandboxLevel;
  // which engine runs the program: native, wasm, or auto (native where the OS sandbox proved itself)
  engine?: EngineChoice;
  // binding calls per run (default: LIMITS.maxCalls.live with live handlers, else no cap)
  maxCalls?: number;
}

// The one way a session is handed its runtime: asked per run, by language.
export type RuntimeProvider = (language: Language) => Runtime;

export interface SessionOptions {
  // the session's bindings module (absolute path); without one, programs see no bindings (a replay takes the
  // cassette's names)
  bindingsPath?: string;
  // working directory of the bindings host process (handlers resolve relative paths against it)
  bindingsCwd?: string;
  // the runtime each run's program runs on (the extension keeps one per interpreter path); without one the session
  // makes a default runtime on first use and disposes it with itself
  runtimeFor?: RuntimeProvider;
  // the bindings' own console output and uncaught errors, line by line (never part of a program's output)
  onBindingsLog?: (entry: { stream: 'stdout' | 'stderr'; text: string }) => void;
  onBindingsStatus?: (status: BindingsHostStatus) => void;
}

export interface SessionRunRequest {
  language: Language;
  program: string;
  plan: RunPlan;
  limits?: RunLimits;
  // the program's working directory (absolute)
  cwd?: string;
  // true: frozen clock and seeded random values (a replay reuses its cassette's); false: never (a replay of a
  // deterministic cassette warns); unset: only a replay of a deterministic cassette is deterministic
  deterministic?: boolean;
  // seeds mock fault injection (`failRate`) so the same calls fail again
  seed?: number;
  signal?: AbortSignal;
  onLog?: (entry: LogEntry) => void;
  onCall?: CallListener;
  onCallStart?: CallStartListener;
  // schema drift, unused recorded calls, handler warnings: for the person running it, never the program's output
  onWarning?: WarningSink;
  // calls that stop before their handler runs: breakpoints, approvals, a fork's prefix, and who decides them
  pauses?: PauseRequest;
}

// Why a run could not start; shown where the result would be, never a silent failure.
export type SetupStage = 'bindings' | 'cassette' | 'request';

export type CassetteWrite = { ok: true; path: string; calls: number } | { ok: false; path: string; message: string };

export type SessionOutcome =
  // `infrastructure`: why the result reflects this machine rather than the program (see infrastructureProblem)
  | { kind: 'result'; result: RunResult; cassette?: CassetteWrite; infrastructure?: string }
  | { kind: 'setup-failed'; stage: SetupStage; message: string };

export type DescribeOutcome = { ok: true; module: DescribedModule } | { ok: false; message: string };

// One notebook session or one `ptc` command: its bindings host, its runtime, and how a run goes.
export interface Session {
  readonly bindingsPath: string | undefined;
  // the bindings host (status, restart, interrupt), when the session has a bindings module
  readonly bindings: BindingsHost | undefined;
  // Never rejects for anything a program, a bindings module or a cassette does.
  run(request: SessionRunRequest): Promise<SessionOutcome>;
  // Starts the bindings host and a spare process for runs like `request` (its program is not run); true once the
  // spare is ready. For interactive hosts: the next run then skips process start-up.
  warm(request: SessionRunRequest): Promise<boolean>;
  // The module's namespaces, functions and schemas (the SDK, completions), from a host with every MCP server up.
  describe(options?: { signal?: AbortSignal; timeoutMs?: number }): Promise<DescribeOutcome>;
  // Stops the bindings host (and its MCP servers) and the session's own runtime.
  dispose(): Promise<void>;
}
