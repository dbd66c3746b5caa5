import fs from 'node:fs';
import path from 'node:path';
import type { CodeRunSpec } from '../api.js';
import {
  BWRAP_LAUNCH_CWD,
  confinedArgv,
  SANDBOX_DIR,
  SANDBOX_TMP,
  withFreshUid,
  type BindMount,
} from '../sandbox/bwrap.js';
import { runCgroupRequest } from '../sandbox/cgroup.js';
import type { Confinement } from '../sandbox/plan.js';
import type { SandboxHost } from '../sandbox/sandbox-host.js';
import { sandboxFilter } from '../sandbox/seccomp.js';
import type { NodeChildLaunch } from './node-child-process.js';
import type { NodeExecutable } from './node-executable.js';

const SHIM = ['/bin/sh', '-c', '"$@"; exit $?', 'ptc-init'];
const BOOTSTRAP_INSIDE = `${SANDBOX_DIR}/node-child.cjs`;
const ASSETS_INSIDE = `${SANDBOX_DIR}/assets`;

// What an engine's child needs beyond the bootstrap: a folder it reads (bound read-only into the sandbox, readable
// under the permission model, passed as the child's first argument) and V8 flags of its own.
export interface ChildExtras {
  assetDir?: string | undefined;
  flags?: readonly string[];
  // the child's V8 heap for a run's memoryMb, where the program's memory is not that heap (a wasm guest's is bounded
  // on its own; the heap holds the frames of what it prints and returns)
  heapMb?: (memoryMb: number) => number;
}

export interface NodeLaunchOptions {
  deps: { node: NodeExecutable; bootstrapPath: string; host: SandboxHost };
  spec: Pick<CodeRunSpec, 'memoryMb' | 'tmpMb' | 'cwd'>;
  confinement: Confinement;
  // Node's permission model as the second layer (off only for the sandbox proof, which tests the OS layer alone)
  permission: boolean;
  extras?: ChildExtras;
}

// The argv of one Node child under a confinement: bubblewrap around node, or the fallback wrapper and shim.
export function nodeLaunch(options: NodeLaunchOptions): NodeChildLaunch {
  const { deps, spec, confinement } = options;
  const heapMb = options.extras?.heapMb?.(spec.memoryMb) ?? spec.memoryMb;
  const flags = ['--no-warnings', `--max-old-space-size=${heapMb}`, ...(options.extras?.flags ?? [])];
  const assetDir = options.extras?.assetDir;
  const permission =
    options.permission && deps.node.permissionFlag !== undefined ? deps.node.permissionFlag : undefined;
  if (confinement.kind === 'bwrap' && deps.host.arch !== undefined) {
    const tmpBytes = spec.tmpMb * 1024 * 1024;
    if (permission !== undefined)
      flags.push(
        permission,
        `--allow-fs-read=${BOOTSTRAP_INSIDE}`,
        `--allow-fs-read=${SANDBOX_TMP}/`,
        `--allow-fs-write=${SANDBOX_TMP}/`,
        ...(assetDir === undefined ? [] : [`--allow-fs-read=${ASSETS_INSIDE}/`]),
      );
    const argv = confinedArgv({
      host: deps.host,
      binds: [
        ...nodeBinds(deps.node.path),
        { source: deps.bootstrapPath, dest: BOOTSTRAP_INSIDE },
        ...(assetDir === undefined ? [] : [{ source: assetDir, dest: ASSETS_INSIDE }]),
      ],
      tmpBytes,
      // fd 3 and 4 are the frame pipes
      seccompFd: 5,
      command: [deps.node.path, ...flags, BOOTSTRAP_INSIDE, ...(assetDir === undefined ? [] : [ASSETS_INSIDE])],
    });
    return {
      // planned once per setting (backend cache), so each child gets its uid here
      argv: () => withFreshUid(argv),
      cwd: BWRAP_LAUNCH_CWD,
      viaShim: true,
      pidNamespace: true,
      programTmpdir: SANDBOX_TMP,
      feeds: [sandboxFilter(deps.host.arch)],
      diesWithParent: true,
      confined: true,
      cgroup: runCgroupRequest(deps.host, spec),
    };
  }
  const wrapper = confinement.kind === 'bwrap' ? [] : confinement.wrapper;
  const viaShim = wrapper.length > 0;
  const prefix = [...wrapper, ...(viaShim ? SHIM : [])];
  const pidNamespace = wrapper.includes('--pid') && wrapper.includes('--kill-child');
  return {
    argv: (tmpdir) => [
      ...prefix,
      deps.node.path,
      ...flags,
      // the bootstrap file and the private temp dir are all the program can touch
      ...(permission === undefined
        ? []
        : [
            permission,
            `--allow-fs-read=${deps.bootstrapPath}`,
            `--allow-fs-read=${tmpdir}/`,
            `--allow-fs-write=${tmpdir}/`,
            ...(assetDir === undefined ? [] : [`--allow-fs-read=${assetDir}/`]),
          ]),
      deps.bootstrapPath,
      ...(assetDir === undefined ? [] : [assetDir]),
    ],
    cwd: spec.cwd,
    viaShim,
    pidNamespace,
    programTmpdir: undefined,
    feeds: [],
    diesWithParent: false,
    confined: confinement.kind !== 'none',
    cgroup: confinement.kind === 'none' ? undefined : runCgroupRequest(deps.host, spec),
  };
}

// The Node executable inside the sandbox: the file alone from a shared bin dir, its whole dir otherwise (an
// Electron or bundled Node keeps its snapshot and ICU data beside the binary).
function nodeBinds(nodePath: string): BindMount[] {
  const real = fs.realpathSync(nodePath);
  const dir = path.dirname(real);
  const shared = ['/usr/bin', '/bin', '/usr/local/bin', '/usr/sbin', '/sbin'].includes(dir);
  const binds: BindMount[] = [{ source: shared ? real : dir, dest: shared ? real : dir }];
  // the path the child is started by, when it is a symlink to the real binary
  if (real !== nodePath) binds.push({ source: real, dest: nodePath });
  return binds;
}
