import { describe, expect, test } from 'vitest';
import { planSandbox, type ProvenLayers } from '../../../runtime/sandbox/plan.js';
import type { SandboxHost } from '../../../runtime/sandbox/sandbox-host.js';

const linux: SandboxHost = {
  platform: 'linux',
  arch: 'x86_64',
  isRoot: false,
  bwrap: '/usr/bin/bwrap',
  bwrapProblem: undefined,
  setpriv: '/usr/bin/setpriv',
  prlimit: '/usr/bin/prlimit',
  namespacePrefix: ['/usr/bin/unshare', '--net'],
  userNamespace: true,
  unsharePath: '/usr/bin/unshare',
  cgroups: { version: 2, memoryParent: '/sys/fs/cgroup/user.slice/ptc-playground', pidsParent: undefined },
  cgroupProblem: undefined,
};
const noBwrap: SandboxHost = {
  ...linux,
  bwrap: undefined,
  bwrapProblem: 'bubblewrap (bwrap) not found: install the "bubblewrap" package',
};
const mac: SandboxHost = {
  ...noBwrap,
  platform: 'darwin',
  namespacePrefix: undefined,
  unsharePath: undefined,
  bwrapProblem: 'no OS sandbox on darwin',
};
const bounded = { mechanism: 'a cgroup per run' };
const proven: ProvenLayers = {
  os: { mechanisms: ['bubblewrap: …'] },
  osProblem: undefined,
  runtime: { mechanism: 'node-permission-model' },
  bounds: bounded,
};
const runtimeOnly: ProvenLayers = {
  os: undefined,
  osProblem: undefined,
  runtime: { mechanism: 'node-permission-model' },
  bounds: { problem: 'no cgroup v2 subtree' },
};

describe('planSandbox', () => {
  test('full only when the OS sandbox and the language layer were both proven', () => {
    const plan = planSandbox('required', linux, proven);
    expect(plan.ok).toBe(true);
    expect(plan.report).toMatchObject({
      network: 'denied',
      filesystem: 'denied',
      childProcess: 'denied',
      enforcement: 'full',
      mechanisms: ['bubblewrap: …', 'a cgroup per run', 'node-permission-model'],
    });
    expect(plan.report.missing).toBeUndefined();
    const withoutRuntime = planSandbox('best-effort', linux, { ...proven, runtime: undefined });
    expect(withoutRuntime.report.enforcement).toBe('partial');
    expect(planSandbox('required', linux, { ...proven, runtime: undefined }).ok).toBe(false);
  });

  test('without bubblewrap: partial, naming what is missing and the package; required fails before spawning', () => {
    const plan = planSandbox('best-effort', noBwrap, runtimeOnly);
    expect(plan.ok).toBe(true);
    expect(plan.report).toMatchObject({
      network: 'denied',
      enforcement: 'partial',
      mechanisms: ['network-namespace (user namespace)', 'node-permission-model'],
    });
    expect(plan.report.missing?.[0]).toMatch(/bubblewrap.*install the "bubblewrap" package/);
    expect(plan.report.missing).toContain('kernel memory and tasks are not bounded per run: no cgroup v2 subtree');
    const required = planSandbox('required', noBwrap, runtimeOnly);
    expect(required.ok).toBe(false);
    if (!required.ok) expect(required.message).toMatch(/sandbox required but unavailable here: OS sandbox: bubblewrap/);
  });

  test('macOS/Windows without any layer report none', () => {
    const plan = planSandbox('best-effort', mac, {
      os: undefined,
      osProblem: undefined,
      runtime: undefined,
      bounds: { problem: 'no cgroups on darwin' },
    });
    expect(plan.report).toMatchObject({
      network: 'allowed',
      filesystem: 'allowed',
      childProcess: 'allowed',
      enforcement: 'none',
    });
  });

  test('without a proven cgroup the confinement stays full, and missing says what is not bounded', () => {
    const plan = planSandbox('required', linux, {
      ...proven,
      bounds: { problem: "the run's cgroup did not hold in the probe (the probe ran without a cgroup)" },
    });
    expect(plan.ok).toBe(true);
    expect(plan.report.enforcement).toBe('full');
    expect(plan.report.mechanisms).toEqual(['bubblewrap: …', 'node-permission-model']);
    expect(plan.report.missing).toEqual([
      "kernel memory and tasks are not bounded per run: the run's cgroup did not hold in the probe (the probe ran without a cgroup)",
    ]);
  });

  test("'off' confines nothing and says so", () => {
    expect(planSandbox('off', linux, proven).report).toMatchObject({
      network: 'allowed',
      filesystem: 'allowed',
      childProcess: 'allowed',
      enforcement: 'none',
    });
  });
});
