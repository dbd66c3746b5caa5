import { RunSession } from '../engine/run-session.js';
import type { JsonValue } from '../protocol/json-value.js';
import { PYTHON_EXEC_FILTER_MECHANISM, PYTHON_FALLBACK_MECHANISM, unconfinedReport, type Confinement, type ProvenLayers } from '../sandbox/plan.js';
import type { SandboxHost } from '../sandbox/probe.js';
import { judgeProbe, plantSecret, probeSpec } from '../sandbox/proof.js';
import { PythonChildProcess } from './python-child-process.js';
import type { PythonExecutable } from './python-executable.js';
import { pythonLaunch } from './python-launch.js';
import { supervisePythonChild } from './supervise.js';

// Runs the sandbox probe program under a confinement, through the same launch and run path as a real program.
async function runProbe(python: PythonExecutable, host: SandboxHost, confinement: Confinement, secret: string): Promise<JsonValue | undefined> {
  const spec = probeSpec('python', secret);
  let child: PythonChildProcess | undefined;
  try {
    child = new PythonChildProcess(pythonLaunch({ python, host, spec, confinement }));
    const result = await supervisePythonChild(spec, new RunSession(spec, unconfinedReport()), child);
    return result.error === undefined ? result.value : undefined;
  } catch {
    return undefined;
  } finally {
    await child?.discard();
  }
}

async function prove(python: PythonExecutable, host: SandboxHost): Promise<ProvenLayers> {
  if (host.platform !== 'linux') return { os: undefined, osProblem: host.bwrapProblem, runtime: undefined };
  const secret = plantSecret();
  try {
    if (host.bwrap !== undefined) {
      const verdict = judgeProbe(await runProbe(python, host, { kind: 'bwrap' }, secret.file), host, ['exec']);
      if (verdict.ok)
        return {
          os: { mechanisms: verdict.mechanisms },
          osProblem: undefined,
          runtime: verdict.runtimeRefused ? { mechanism: PYTHON_EXEC_FILTER_MECHANISM } : undefined,
        };
      // bubblewrap runs but does not hold: say why, and fall back to what the runner can confine alone
      const fallback = await proveFallback(python, host, secret.file);
      return { ...fallback, osProblem: `bubblewrap did not hold in the probe (${verdict.problem})` };
    }
    return await proveFallback(python, host, secret.file);
  } finally {
    secret.remove();
  }
}

// Without bubblewrap the runner's own filter is what stops new processes: proven by a fork and an exec refused.
async function proveFallback(python: PythonExecutable, host: SandboxHost, secret: string): Promise<ProvenLayers> {
  const seen = await runProbe(python, host, { kind: 'fallback', wrapper: host.namespacePrefix ?? [] }, secret);
  const refused = seen !== null && typeof seen === 'object' && !Array.isArray(seen) ? (seen.refused as Record<string, unknown> | undefined) : undefined;
  const holds = refused?.fork === true && refused?.exec === true;
  return { os: undefined, osProblem: host.bwrapProblem, runtime: holds ? { mechanism: PYTHON_FALLBACK_MECHANISM } : undefined };
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
