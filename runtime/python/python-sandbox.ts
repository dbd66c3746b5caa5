import { RunState } from '../engine/run-state.js';
import {
  provenBounds,
  PYTHON_EXEC_FILTER_MECHANISM,
  PYTHON_FALLBACK_MECHANISM,
  unconfinedReport,
  type Confinement,
  type ProvenLayers,
} from '../sandbox/plan.js';
import type { SandboxHost } from '../sandbox/sandbox-host.js';
import { judgeProbe, plantSecret, probeOnChild, probeSpec, type ProbeRun } from '../sandbox/proof.js';
import { PythonChildProcess } from './python-child-process.js';
import type { PythonExecutable } from './python-executable.js';
import { pythonLaunch } from './python-launch.js';
import { supervisePythonChild } from './supervise.js';

// Runs the sandbox probe program under a confinement, through the same launch and run path as a real program.
function runProbe(
  python: PythonExecutable,
  host: SandboxHost,
  confinement: Confinement,
  secret: { file: string; dir: string },
): Promise<ProbeRun> {
  const spec = probeSpec('python', secret.file);
  return probeOnChild(
    secret.dir,
    (decoy) => new PythonChildProcess({ ...pythonLaunch({ python, host, spec, confinement }), decoy }),
    (child) => supervisePythonChild(spec, new RunState(spec, unconfinedReport()), child),
  );
}

async function prove(python: PythonExecutable, host: SandboxHost): Promise<ProvenLayers> {
  if (host.platform !== 'linux')
    return {
      os: undefined,
      osProblem: host.bwrapProblem,
      runtime: undefined,
      bounds: { problem: host.cgroupProblem ?? 'no cgroups' },
    };
  const secret = plantSecret();
  try {
    if (host.bwrap !== undefined) {
      const probe = await runProbe(python, host, { kind: 'bwrap' }, secret);
      const verdict = judgeProbe(probe.value, host, ['exec']);
      if (verdict.ok)
        return {
          os: { mechanisms: verdict.mechanisms },
          osProblem: undefined,
          runtime: verdict.runtimeRefused ? { mechanism: PYTHON_EXEC_FILTER_MECHANISM } : undefined,
          bounds: provenBounds(host, probe.cgroup),
        };
      // bubblewrap runs but does not hold: say why, and fall back to what the runner can confine alone
      const fallback = await proveFallback(python, host, secret);
      return { ...fallback, osProblem: `bubblewrap did not hold in the probe (${verdict.problem})` };
    }
    return await proveFallback(python, host, secret);
  } finally {
    secret.remove();
  }
}

// Without bubblewrap the runner's own filter is what stops new processes: proven by a fork and an exec refused.
async function proveFallback(
  python: PythonExecutable,
  host: SandboxHost,
  secret: { file: string; dir: string },
): Promise<ProvenLayers> {
  const probe = await runProbe(python, host, { kind: 'fallback', wrapper: host.namespacePrefix ?? [] }, secret);
  const seen = probe.value;
  const refused =
    seen !== null && typeof seen === 'object' && !Array.isArray(seen)
      ? (seen.refused as Record<string, unknown> | undefined)
      : undefined;
  const holds = refused?.fork === true && refused?.exec === true;
  return {
    os: undefined,
    osProblem: host.bwrapProblem,
    runtime: holds ? { mechanism: PYTHON_FALLBACK_MECHANISM } : undefined,
    bounds: provenBounds(host, probe.cgroup),
  };
}

const proven = new Map<string, Promise<ProvenLayers>>();

// Probed once per interpreter, then cached for the life of the host.
export function provenPythonLayers(python: PythonExecutable, host: SandboxHost): Promise<ProvenLayers> {
  const key = JSON.stringify([python.path, host.bwrap ?? null]);
  let layers = proven.get(key);
  if (layers === undefined) {
    layers = prove(python, host);
    proven.set(key, layers);
  }
  return layers;
}
