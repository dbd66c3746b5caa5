import { RunState } from '../engine/run-state.js';
import type { JsonValue } from '../protocol/json-value.js';
import { NODE_PERMISSION_MECHANISM, provenBounds, unconfinedReport, type ProvenLayers } from '../sandbox/plan.js';
import type { SandboxHost } from '../sandbox/sandbox-host.js';
import { judgeProbe, openDecoy, plantSecret, probeSpec, type CgroupSight } from '../sandbox/proof.js';
import { nodeLaunch } from './node-launch.js';
import { superviseNodeChild } from './supervise.js';
import { NodeChildProcess } from './node-child-process.js';
import type { NodeExecutable } from './node-executable.js';
import { stripProgram } from './strip.js';

interface ProbeRun {
  value: JsonValue | undefined;
  cgroup: CgroupSight | undefined;
}

// Runs the sandbox probe under bubblewrap WITHOUT the permission model, so a refusal proves the OS layer alone; the
// host leaves the secret's directory open in it on purpose, and reads its cgroup from outside before discarding it.
async function runProbe(
  node: NodeExecutable,
  bootstrapPath: string,
  host: SandboxHost,
  secret: { file: string; dir: string },
): Promise<ProbeRun> {
  const spec = probeSpec('typescript', secret.file);
  const stripped = await stripProgram(spec.program);
  if (!stripped.ok) return { value: undefined, cgroup: undefined };
  let child: NodeChildProcess | undefined;
  const decoy = openDecoy(secret.dir);
  try {
    const launch = nodeLaunch({
      deps: { node, bootstrapPath, host },
      spec,
      confinement: { kind: 'bwrap' },
      permission: false,
    });
    child = new NodeChildProcess({ ...launch, decoy: { fd: decoy.fd, at: decoy.at } });
    decoy.close();
    const result = await superviseNodeChild(spec, new RunState(spec, unconfinedReport()), child, stripped.code);
    const cgroup =
      child.cgroup === undefined
        ? undefined
        : { requested: child.cgroup.limits.memoryBytes, ...child.cgroup.accounting() };
    return { value: result.error === undefined ? result.value : undefined, cgroup };
  } catch {
    return { value: undefined, cgroup: undefined };
  } finally {
    decoy.close();
    await child?.discard();
  }
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
