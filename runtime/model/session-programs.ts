import type { RunPlan, RunLimits, Session } from '../session/session-types.js';
import type { LoopProgram, ProgramRun } from './agent-loop.js';

export interface SessionProgramsOptions {
  session: Session;
  // how each program's binding calls are served (a turn's own cassette, a shared one, mocks…)
  planFor: (program: LoopProgram) => RunPlan;
  limits?: RunLimits;
  cwd?: string;
  signal?: AbortSignal;
  onWarning?: (message: string) => void;
}

// Runs the loop's programs on a session: the same sandbox, bindings host and record/replay as `ptc run`.
export function sessionPrograms(options: SessionProgramsOptions): (program: LoopProgram) => Promise<ProgramRun> {
  return async (program) => {
    const outcome = await options.session.run({
      language: program.language,
      program: program.source,
      plan: options.planFor(program),
      ...(options.limits === undefined ? {} : { limits: options.limits }),
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.onWarning === undefined ? {} : { onWarning: options.onWarning }),
    });
    if (outcome.kind === 'setup-failed') return { kind: 'not-run', message: outcome.message };
    if (outcome.cassette !== undefined && !outcome.cassette.ok) options.onWarning?.(outcome.cassette.message);
    return { kind: 'result', result: outcome.result };
  };
}
