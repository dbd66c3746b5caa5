import type { SandboxLevel } from '../api.js';
import type { SandboxReport } from '../protocol/run-result.js';
import type { SandboxCapabilities } from './probe.js';

// Layers a backend can add on top of the namespaces (the Node permission model, Landlock, seccomp…).
export interface BackendLayers {
  filesystem: { mechanism: string } | undefined;
  childProcess: { mechanism: string } | undefined;
}

export type SandboxPlan =
  | { ok: true; report: SandboxReport; wrapper: string[]; useNamespaces: boolean; useBackendLayers: boolean }
  | { ok: false; message: string; report: SandboxReport };

// What a run reports when nothing confines it (also before its sandbox could be planned); fresh each call.
export function unconfinedReport(): SandboxReport {
  return { network: 'allowed', filesystem: 'allowed', childProcess: 'allowed', enforcement: 'none', mechanisms: [] };
}

// Decides what confines a run and reports it honestly; 'required' with a missing layer fails before spawning.
export function planSandbox(level: SandboxLevel, caps: SandboxCapabilities, layers: BackendLayers): SandboxPlan {
  // lifecycle only: a PID namespace lets the kernel reap detached grandchildren; it confines nothing
  const lifecycleWrapper = caps.namespacePrefix !== undefined && !caps.userNamespace ? lifecycleOnly(caps) : [];
  if (level === 'off') {
    return {
      ok: true,
      report: { ...unconfinedReport(), mechanisms: lifecycleWrapper.length > 0 ? ['pid-namespace (cleanup only)'] : [] },
      wrapper: lifecycleWrapper,
      useNamespaces: false,
      useBackendLayers: false,
    };
  }
  const mechanisms: string[] = [];
  const missing: string[] = [];
  const network = caps.namespacePrefix !== undefined ? 'denied' : 'allowed';
  if (caps.namespacePrefix !== undefined) mechanisms.push(caps.userNamespace ? 'network-namespace (user namespace)' : 'network-namespace');
  else missing.push(caps.platform === 'linux' ? 'network (no usable unshare/namespaces)' : `network (no namespaces on ${caps.platform})`);
  const filesystem = layers.filesystem !== undefined ? 'denied' : 'allowed';
  if (layers.filesystem !== undefined) mechanisms.push(layers.filesystem.mechanism);
  else missing.push('filesystem');
  const childProcess = layers.childProcess !== undefined ? 'denied' : 'allowed';
  if (layers.childProcess !== undefined && !mechanisms.includes(layers.childProcess.mechanism)) mechanisms.push(layers.childProcess.mechanism);
  if (layers.childProcess === undefined) missing.push('child processes');
  const enforcement = missing.length === 0 ? 'full' : mechanisms.length === 0 ? 'none' : 'partial';
  const report: SandboxReport = { network, filesystem, childProcess, enforcement, mechanisms };
  if (level === 'required' && missing.length > 0) {
    return { ok: false, report, message: `sandbox required but unavailable here: ${missing.join(', ')} cannot be confined` };
  }
  return { ok: true, report, wrapper: caps.namespacePrefix ?? [], useNamespaces: caps.namespacePrefix !== undefined, useBackendLayers: true };
}

function lifecycleOnly(caps: SandboxCapabilities): string[] {
  return caps.unsharePath === undefined ? [] : [caps.unsharePath, '--pid', '--fork', '--kill-child'];
}
