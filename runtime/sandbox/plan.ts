import type { SandboxLevel } from '../api.js';
import type { SandboxReport } from '../protocol/run-result.js';
import type { SandboxHost } from './sandbox-host.js';
import { judgeCgroup, type CgroupSight } from './proof.js';

// What the per-language proof established (sandbox/proof.ts): each entry was seen refused by a real attempt.
export interface ProvenLayers {
  // the bubblewrap sandbox as a whole (namespaces, read-only root, tmpfs, seccomp, no capabilities)
  os: { mechanisms: string[] } | undefined;
  // why the OS layer is not proven, when it is not
  osProblem: string | undefined;
  // the language's own second layer (Node's permission model, the Python runner's exec filter)
  runtime: { mechanism: string } | undefined;
  // the per-run cgroup that bounds what a run makes the kernel hold, when proven; else why not
  bounds: { mechanism: string } | { problem: string };
}

// How a run is launched under the plan: bubblewrap, or the fallback namespaces and in-process layers.
export type Confinement =
  { kind: 'bwrap' } | { kind: 'fallback'; wrapper: string[] } | { kind: 'none'; wrapper: string[] };

export type SandboxPlan =
  { ok: true; report: SandboxReport; confinement: Confinement } | { ok: false; message: string; report: SandboxReport };

// What a run reports when nothing confines it (also before its sandbox could be planned); fresh each call.
export function unconfinedReport(): SandboxReport {
  return { network: 'allowed', filesystem: 'allowed', childProcess: 'allowed', enforcement: 'none', mechanisms: [] };
}

// Decides what confines a run and reports it honestly: a layer counts only once a probe proved it, 'full' needs
// the OS sandbox and the language's own layer, and 'required' without them fails before anything starts.
export function planSandbox(level: SandboxLevel, host: SandboxHost, layers: ProvenLayers): SandboxPlan {
  if (level === 'off') {
    // lifecycle only: a PID namespace lets the kernel reap detached grandchildren; it confines nothing
    const wrapper =
      host.namespacePrefix !== undefined && !host.userNamespace && host.unsharePath !== undefined
        ? [host.unsharePath, '--pid', '--fork', '--kill-child']
        : [];
    return {
      ok: true,
      report: { ...unconfinedReport(), mechanisms: wrapper.length > 0 ? ['pid-namespace (cleanup only)'] : [] },
      confinement: { kind: 'none', wrapper },
    };
  }
  const runtime = layers.runtime === undefined ? [] : [layers.runtime.mechanism];
  // the kernel-memory bound is not confinement: without it enforcement can still be full, and missing says so
  const bounds = 'mechanism' in layers.bounds ? [layers.bounds.mechanism] : [];
  const unbounded =
    'problem' in layers.bounds ? [`kernel memory and tasks are not bounded per run: ${layers.bounds.problem}`] : [];
  if (layers.os !== undefined) {
    const unconfined = layers.runtime === undefined ? ["the language's own second layer could not be proven"] : [];
    const missing = [...unconfined, ...unbounded];
    const report: SandboxReport = {
      network: 'denied',
      filesystem: 'denied',
      childProcess: 'denied',
      enforcement: unconfined.length === 0 ? 'full' : 'partial',
      mechanisms: [...layers.os.mechanisms, ...bounds, ...runtime],
      ...(missing.length > 0 ? { missing } : {}),
    };
    if (level === 'required' && unconfined.length > 0)
      return { ok: false, report, message: `sandbox required but incomplete here: ${unconfined.join('; ')}` };
    return { ok: true, report, confinement: { kind: 'bwrap' } };
  }
  // without bubblewrap: fresh network namespace if unshare works, plus whatever the language confines itself
  const mechanisms: string[] = [];
  const missing = [`OS sandbox: ${layers.osProblem ?? host.bwrapProblem ?? 'unavailable'}`];
  if (host.namespacePrefix !== undefined)
    mechanisms.push(host.userNamespace ? 'network-namespace (user namespace)' : 'network-namespace');
  else
    missing.push(
      host.platform === 'linux'
        ? 'network (no usable unshare/namespaces)'
        : `network (no namespaces on ${host.platform})`,
    );
  mechanisms.push(...bounds, ...runtime);
  missing.push(...unbounded);
  const report: SandboxReport = {
    network: host.namespacePrefix !== undefined ? 'denied' : 'allowed',
    filesystem: layers.runtime?.mechanism === NODE_PERMISSION_MECHANISM ? 'denied' : 'allowed',
    childProcess: layers.runtime !== undefined ? 'denied' : 'allowed',
    enforcement: mechanisms.length === 0 ? 'none' : 'partial',
    mechanisms,
    missing,
  };
  if (level === 'required')
    return { ok: false, report, message: `sandbox required but unavailable here: ${missing.join('; ')}` };
  return { ok: true, report, confinement: { kind: 'fallback', wrapper: host.namespacePrefix ?? [] } };
}

export const NODE_PERMISSION_MECHANISM = 'node-permission-model';
export const PYTHON_EXEC_FILTER_MECHANISM = 'seccomp exec filter (Python runner)';
// without bubblewrap the Python runner installs the whole filter itself
export const PYTHON_FALLBACK_MECHANISM = 'seccomp (no exec/fork, capabilities dropped; Python runner)';

// The per-run cgroup as the proof found it: its mechanism once the probe ran inside it with its bound in force.
export function provenBounds(host: SandboxHost, sight: CgroupSight | undefined): ProvenLayers['bounds'] {
  if (host.cgroups === undefined) return { problem: host.cgroupProblem ?? 'no cgroup here' };
  const verdict = judgeCgroup(sight);
  return verdict.ok
    ? { mechanism: verdict.mechanism }
    : { problem: `the run's cgroup did not hold in the probe (${verdict.problem})` };
}
