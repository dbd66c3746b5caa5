import path from 'node:path';
import type { CodeRunSpec } from '../api.js';
import { BWRAP_LAUNCH_CWD, confinedArgv, SANDBOX_DIR, SANDBOX_TMP, type BindMount } from '../sandbox/bwrap.js';
import { runCgroupRequest } from '../sandbox/cgroup.js';
import type { Confinement } from '../sandbox/plan.js';
import type { SandboxHost } from '../sandbox/sandbox-host.js';
import { execFilter, sandboxFilter } from '../sandbox/seccomp.js';
import { PYTHON_SHIM, type PythonChildLaunch } from './python-child-process.js';
import { PYTHON_FLAGS, type PythonExecutable } from './python-executable.js';

const RUNNER_INSIDE = `${SANDBOX_DIR}/runner`;

export interface PythonLaunchOptions {
  python: PythonExecutable;
  host: SandboxHost;
  spec: Pick<CodeRunSpec, 'cwd' | 'tmpMb' | 'memoryMb'>;
  confinement: Confinement;
}

// The argv of one CPython child under a confinement: bubblewrap around the interpreter, or the fallback wrapper
// and shim with the whole seccomp filter installed by the runner itself.
export function pythonLaunch(options: PythonLaunchOptions): PythonChildLaunch {
  const { python, host, spec, confinement } = options;
  const arch = host.arch;
  const common = { python, cwd: spec.cwd, preload: false };
  if (confinement.kind === 'bwrap' && arch !== undefined) {
    const base = {
      host,
      binds: pythonBinds(python),
      tmpBytes: spec.tmpMb * 1024 * 1024,
      // fd 3 is the control channel
      seccompFd: 4,
    };
    return {
      ...common,
      cwd: BWRAP_LAUNCH_CWD,
      argv: (runnerDir) =>
        confinedArgv({
          ...base,
          // absolute: bubblewrap resolves a relative source (a relative TMPDIR) against BWRAP_LAUNCH_CWD, not ours
          binds: [...base.binds, { source: path.resolve(runnerDir), dest: RUNNER_INSIDE }],
          command: [python.path, ...PYTHON_FLAGS, `${RUNNER_INSIDE}/${python.entryFile}`],
        }),
      viaShim: true,
      pidNamespace: true,
      diesWithParent: true,
      filters: [execFilter(arch).toString('base64')],
      programTmpdir: SANDBOX_TMP,
      programCwd: SANDBOX_TMP,
      feeds: [sandboxFilter(arch)],
      cgroup: runCgroupRequest(host, spec),
    };
  }
  const wrapper = confinement.kind === 'bwrap' ? [] : confinement.wrapper;
  const viaShim = wrapper.length > 0;
  const prefix = [...wrapper, ...(viaShim ? PYTHON_SHIM : [])];
  const filters =
    confinement.kind === 'fallback' && arch !== undefined
      ? [sandboxFilter(arch), execFilter(arch)].map((f) => f.toString('base64'))
      : [];
  return {
    ...common,
    argv: (runnerDir) => [...prefix, python.path, ...PYTHON_FLAGS, path.join(runnerDir, python.entryFile)],
    viaShim,
    pidNamespace: wrapper.includes('--pid') && wrapper.includes('--kill-child'),
    diesWithParent: false,
    filters,
    programTmpdir: undefined,
    programCwd: undefined,
    feeds: [],
    cgroup: confinement.kind === 'none' ? undefined : runCgroupRequest(host, spec),
  };
}

// The interpreter inside the sandbox: a private prefix (pyenv, a venv's base) whole; a system one only its binary
// and import dirs, since /usr/lib is bound already and /usr/bin must stay outside.
function pythonBinds(python: PythonExecutable): BindMount[] {
  const system = ['/', '/usr', '/usr/local'].includes(python.prefix);
  const binds: BindMount[] = system ? [] : [{ source: python.prefix, dest: python.prefix }];
  const inside = (p: string): boolean => !system && (p === python.prefix || p.startsWith(`${python.prefix}/`));
  for (const p of [python.path, ...python.importDirs, ...python.sitePackages])
    if (!inside(p) && !binds.some((b) => b.dest === p)) binds.push({ source: p, dest: p });
  return binds;
}
