import type { CodeRunSpec } from '../api.js';
import type { RunState } from '../engine/run-state.js';
import { describeExit, superviseRun } from '../engine/supervise-child.js';
import { inheritedLimits, tighterCpu } from '../process/inherited-limits.js';
import { bootFrame, ChildFrameSchema } from '../protocol/node-wire.js';
import type { RunResult } from '../protocol/run-result.js';
import type { NodeChildProcess } from './node-child-process.js';

// Hands a started Node child its program and settles the run (the same lifecycle as python/supervise.ts).
export async function superviseNodeChild(
  spec: CodeRunSpec,
  session: RunState,
  child: NodeChildProcess,
  code: string,
  engine: 'node' | 'quickjs' | 'pyodide' = 'node',
): Promise<RunResult> {
  const wasm = engine !== 'node';
  // inherited by the child as well (a Node run has no CPU limit of its own)
  const cpuSeconds = inheritedLimits().cpuSeconds;
  const frame = (routed: boolean): string =>
    JSON.stringify(
      bootFrame(spec, code, {
        tmpdir: child.tmpdir,
        confined: child.confined,
        ...(routed && child.bindingsFd !== undefined ? { bindingsFd: child.bindingsFd } : {}),
        ...(cpuSeconds === undefined ? {} : { cpuSeconds }),
        // a wasm engine bounds its guest itself: quickjs an interrupt at the deadline, both a heap limit
        ...(wasm ? { timeoutMs: spec.timeoutMs, memoryMb: spec.memoryMb } : {}),
      }),
    );
  return superviseRun({
    spec,
    session,
    child,
    wire: { parse: (value) => ChildFrameSchema.safeParse(value), valueless: 'absent', codec: 'frames' },
    frame,
    runtimeName: wasm ? `${engine} engine` : 'Node',
    exitFailure: (exit) => {
      // Node runs have no CPU limit of their own: a SIGXCPU is one this process inherited, and a CPU budget all the
      // same
      if (exit?.signal === 'SIGXCPU')
        return { kind: 'timeout', message: `CPU time exhausted (${tighterCpu(undefined) ?? 'RLIMIT_CPU'})` };
      const oom = session.ledger.someStderr((text) => /heap out of memory|Reached heap limit/.test(text));
      const what = wasm ? `The ${engine} engine process` : 'Node process';
      return {
        kind: 'worker-exit',
        message: `${what} exited before completing (${describeExit(exit)})${oom ? ': JavaScript heap out of memory' : ''}`,
      };
    },
  });
}
