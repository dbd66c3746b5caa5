import type { CgroupHost } from './cgroup.js';
import type { SandboxArch } from './syscalls.js';

// What this machine offers the sandbox, found once by the probe (probe.ts) and read by every launch (bwrap.ts,
// plan.ts).
export interface SandboxHost {
  platform: NodeJS.Platform;
  arch: SandboxArch | undefined;
  isRoot: boolean;
  // bubblewrap, only when a real confined start under it worked
  bwrap: string | undefined;
  // why bubblewrap is not used, with what to install
  bwrapProblem: string | undefined;
  // util-linux tools: setpriv drops root to an unprivileged uid inside the sandbox; prlimit sets its rlimits there
  setpriv: string | undefined;
  prlimit: string | undefined;
  // fallback without bubblewrap: argv prefix for fresh network + PID namespaces (unshare)
  namespacePrefix: string[] | undefined;
  // the fallback namespaces come from an unprivileged user namespace
  userNamespace: boolean;
  unsharePath: string | undefined;
  // where each run gets a cgroup of its own (its kernel memory and task bound), or why none
  cgroups: CgroupHost | undefined;
  cgroupProblem: string | undefined;
}
