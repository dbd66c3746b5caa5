import type { CodeRunSpec } from '../api.js';
import { describeExit, superviseRun } from '../engine/supervise-child.js';
import type { RunState } from '../engine/run-state.js';
import type { ExitInfo } from '../process/launch.js';
import { describeNamespace } from '../protocol/binding-call.js';
import { inheritedLimits, tighterAddressSpace, tighterCpu } from '../process/inherited-limits.js';
import { PythonChildFrameSchema, type PythonRunFrame } from '../protocol/python-wire.js';
import type { RunFailure, RunResult } from '../protocol/run-result.js';
import type { PythonChildProcess } from './python-child-process.js';

function runFrame(spec: CodeRunSpec, child: PythonChildProcess, routed: boolean): PythonRunFrame {
  return {
    type: 'run',
    program: spec.program,
    namespaces: spec.bindings.map(describeNamespace),
    maxOutputBytes: spec.maxOutputBytes,
    maxPendingCalls: spec.maxPendingCalls,
    cpuSeconds: cpuSeconds(spec),
    addressSpaceBytes: spec.memoryMb * 1024 * 1024,
    cwd: child.programCwd ?? spec.cwd,
    ...(spec.deterministic === undefined ? {} : { deterministic: spec.deterministic }),
    ...(routed && child.bindingsFd !== undefined ? { bindingsFd: child.bindingsFd } : {}),
  };
}

// Supervises one run on a booted (or booting) child: frames, pipes, deadline, abort, exit classification.
export async function supervisePythonChild(
  spec: CodeRunSpec,
  session: RunState,
  child: PythonChildProcess,
): Promise<RunResult> {
  return superviseRun({
    spec,
    session,
    child,
    // Python has no undefined: a done without a value (only a forged one) reads as null
    wire: { parse: (value) => PythonChildFrameSchema.safeParse(value), valueless: 'null', codec: 'lines' },
    frame: (routed) => JSON.stringify(runFrame(spec, child, routed)),
    // the boot ack said the runner could not confine itself
    refused: () => {
      if (child.bootProblem !== undefined) session.fail({ kind: 'sandbox-unavailable', message: child.bootProblem });
    },
    runtimeName: 'Python',
    exitFailure: (exit) => exitFailure(exit, spec, session),
  });
}

// The child ended without `done`: SIGXCPU is the CPU limit (timeout); anything else is worker-exit.
function exitFailure(exit: ExitInfo | undefined, spec: CodeRunSpec, session: RunState): RunFailure {
  const inherited = inheritedLimits();
  if (exit?.signal === 'SIGXCPU') {
    const tighter = tighterCpu(cpuSeconds(spec), inherited);
    return {
      kind: 'timeout',
      message: `CPU time exhausted (${tighter ?? `RLIMIT_CPU; the run allows at most ${cpuSeconds(spec)}s of CPU time`})`,
    };
  }
  const memory = session.ledger.someStderr((text) => /MemoryError|Cannot allocate memory|out of memory/i.test(text));
  return {
    kind: 'worker-exit',
    message: `Python process exited before completing (${describeExit(exit)})${memory ? `: out of memory (${tighterAddressSpace(spec.memoryMb, inherited) ?? `memoryMb ${spec.memoryMb}`})` : ''}`,
  };
}

// A backstop above the wall deadline: one Python thread cannot burn CPU faster than the clock runs.
function cpuSeconds(spec: CodeRunSpec): number {
  return Math.ceil(spec.timeoutMs / 1000) + 1;
}
