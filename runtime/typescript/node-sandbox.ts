import { RunState } from '../engine/run-state.js';
import { NODE_PERMISSION_MECHANISM, provenBounds, unconfinedReport, type ProvenLayers } from '../sandbox/plan.js';
import type { SandboxHost } from '../sandbox/sandbox-host.js';
import { judgeProbe, plantSecret, probeOnChild, probeSpec, type ProbeRun } from '../sandbox/proof.js';
import { nodeLaunch } from './node-launch.js';
import { superviseNodeChild } from './supervise.js';
import { NodeChildProcess } from './node-child-process.js';
import type { NodeExecutable } from './node-executable.js';
import { stripProgram } from './strip.js';

// Runs the sandbox probe under bubblewrap WITHOUT the permission model, so a refusal proves the OS layer alone.
async function runProbe(
  node: NodeExecutable,
  bootstrapPath: string,
  host: SandboxHost,
  secret: { file: string; dir: string },
): Promise<ProbeRun> {
  const spec = probeSpec('typescript', secret.file);
  const stripped = await stripProgram(spec.program);
  if (!stripped.ok) return { value: undefined, cgroup: undefined };
  const launch = {
    deps: { node, bootstrapPath, host },
    spec,
    confinement: { kind: 'bwrap' },
    permission: false,
  } as const;
  return probeOnChild(
    secret.dir,
    (decoy) => new NodeChildProcess({ ...nodeLaunch(launch), decoy }),
    (child) => superviseNodeChild(spec, new RunState(spec, unconfinedReport()), child, stripped.code),
  );
}

async function prove(node: NodeExecutable, bootstrapPath: string, host: SandboxHost): Promise<ProvenLayers> {
  // the second layer: proven by probeNode's real read attempt under the flag
  const runtime = node.permissionFlag === undefined ? undefined : { mechanism: NODE_PERMISSION_MECHANISM };
  if (host.bwrap === undefined)
    return {
      os: undefined,
      osProblem: host.bwrapProblem,
      runtime,
      bounds: { problem: host.cgroupProblem ?? 'proven only under bubblewrap' },
    };
  const secret = plantSecret();
  try {
    const probe = await runProbe(node, bootstrapPath, host, secret);
    const verdict = judgeProbe(probe.value, host, []);
    const bounds = provenBounds(host, probe.cgroup);
    if (verdict.ok) return { os: { mechanisms: verdict.mechanisms }, osProblem: undefined, runtime, bounds };
    return { os: undefined, osProblem: `bubblewrap did not hold in the probe (${verdict.problem})`, runtime, bounds };
  } finally {
    secret.remove();
  }
}

const proven = new Map<string, Promise<ProvenLayers>>();

// Probed once per Node executable, then cached for the life of the host.
export function provenNodeLayers(
  node: NodeExecutable,
  bootstrapPath: string,
  host: SandboxHost,
): Promise<ProvenLayers> {
  const key = JSON.stringify([node.path, bootstrapPath, host.bwrap ?? null]);
  let layers = proven.get(key);
  if (layers === undefined) {
    layers = prove(node, bootstrapPath, host);
    proven.set(key, layers);
  }
  return layers;
}
