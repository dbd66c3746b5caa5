import type { CodeRunSpec, RuntimeOptions } from '../api.js';
import type { Language, RunResult } from '../protocol/run-result.js';

// One language's way to run programs (typescript/node-backend.ts, python/python-backend.ts, the same file layout
// each: *-backend, *-launch, *-child-process, *-executable, *-sandbox, supervise). createRuntime holds one per
// language and knows nothing else about either.
export interface Backend {
  readonly language: Language;
  // Runs one program in a fresh process (a never-used spare or a cold start); every outcome is data in the result.
  run(spec: CodeRunSpec): Promise<RunResult>;
  // Starts a spare for runs like `spec`; true once one is ready, false when such a run cannot have one.
  warm(spec: CodeRunSpec): Promise<boolean>;
  // Why the OS sandbox does not hold for runs like `spec` here (bubblewrap missing, its probe failed), or undefined
  // once its probe proved it: `engine: auto` runs the wasm engine when there is a reason.
  osSandboxProblem(spec: CodeRunSpec): Promise<string | undefined>;
  // Stops the backend's spares.
  dispose(): Promise<void>;
}

// What createRuntime gives each backend.
export interface BackendOptions {
  runtime: RuntimeOptions;
  // pre-started children kept per launch setting (0 = every run starts cold)
  spares: number;
}
