import { RunSession } from '../engine/run-session.js';
import type { JsonValue } from '../protocol/json-value.js';
import { NODE_PERMISSION_MECHANISM, unconfinedReport, type ProvenLayers } from '../sandbox/plan.js';
import type { SandboxHost } from '../sandbox/probe.js';
import { judgeProbe, plantSecret, probeSpec } from '../sandbox/proof.js';
import { nodeLaunch } from './node-launch.js';
import { superviseNodeChild } from './supervise.js';
import { NodeChildProcess } from './node-child-process.js';
import type { NodeExecutable } from './node-executable.js';
import { stripProgram } from './strip.js';

// Runs the sandbox probe under bubblewrap WITHOUT the permission model, so a refusal proves the OS layer alone.
async function runProbe(node: NodeExecutable, bootstrapPath: string, host: SandboxHost, secret: string): Promise<JsonValue | undefined> {
  const spec = probeSpec('typescript', secret);
  const stripped = await stripProgram(spec.program);
  if (!stripped.ok) return undefined;
  let child: NodeChildProcess | undefined;
  try {
    child = new NodeChildProcess(nodeLaunch({ deps: { node, bootstrapPath, host }, spec, confinement: { kind: 'bwrap' }, permission: false }));
    const result = await superviseNodeChild(spec, new RunSession(spec, unconfinedReport()), child, stripped.code);
    return result.error === undefined ? result.value : undefined;
  } catch {
    return undefined;
  } finally {
    await child?.discard();
  }
}

async function prove(node: NodeExecutable, bootstrapPath: string, host: SandboxHost): Promise<ProvenLayers> {
  // the second layer: proven by probeNode's real read attempt under the flag
  const runtime = node.permissionFlag === undefined ? undefined : { mechanism: NODE_PERMISSION_MECHANISM };
  if (host.bwrap === undefined) return { os: undefined, osProblem: host.bwrapProblem, runtime };
  const secret = plantSecret();
  try {
    const verdict = judgeProbe(await runProbe(node, bootstrapPath, host, secret.file), host, []);
    if (verdict.ok) return { os: { mechanisms: verdict.mechanisms }, osProblem: undefined, runtime };
    return { os: undefined, osProblem: `bubblewrap did not hold in the probe (${verdict.problem})`, runtime };
  } finally {
    secret.remove();
  }
}

const proven = new Map<string, Promise<ProvenLayers>>();

// Probed once per Node executable, then cached for the life of the host.
export function provenNodeLayers(node: NodeExecutable, bootstrapPath: string, host: SandboxHost): Promise<ProvenLayers> {
  const key = JSON.stringify([node.path, bootstrapPath, host.bwrap ?? null]);
  let layers = proven.get(key);
  if (layers === undefined) {
    layers = prove(node, bootstrapPath, host);
    proven.set(key, layers);
  }
  return layers;
}
