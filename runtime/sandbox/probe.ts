import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

// What the OS offers for confining a child, probed once per runtime (each probe is a real attempt, not a guess).
export interface SandboxCapabilities {
  platform: NodeJS.Platform;
  // argv prefix that puts the child in fresh network + PID namespaces, or undefined when unavailable
  namespacePrefix: string[] | undefined;
  // whether the namespaces come from an unprivileged user namespace (the program then sees uid 0 inside)
  userNamespace: boolean;
  unsharePath: string | undefined;
}

function findExecutable(name: string): string | undefined {
  for (const dir of ['/usr/bin', '/bin', '/usr/sbin', '/sbin', ...(process.env.PATH ?? '').split(':')]) {
    if (dir.length === 0 || !dir.startsWith('/')) continue;
    const candidate = `${dir}/${name}`;
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      continue;
    }
  }
  return undefined;
}

// Generous timeout: a loaded machine must not silently lose its sandbox because the probe was slow.
function works(argv: string[]): boolean {
  const [cmd, ...args] = argv;
  if (cmd === undefined) return false;
  const r = spawnSync(cmd, [...args, '/bin/sh', '-c', 'exit 0'], { stdio: 'ignore', timeout: 20_000, env: {} });
  return r.status === 0;
}

export function probeSandbox(): SandboxCapabilities {
  const platform = process.platform;
  if (platform !== 'linux') return { platform, namespacePrefix: undefined, userNamespace: false, unsharePath: undefined };
  const unshare = findExecutable('unshare');
  if (unshare === undefined) return { platform, namespacePrefix: undefined, userNamespace: false, unsharePath: undefined };
  // --kill-child: when unshare dies, the namespace's first process dies, and the kernel then kills the whole namespace
  const base = ['--net', '--pid', '--fork', '--kill-child'];
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot && works([unshare, ...base])) return { platform, namespacePrefix: [unshare, ...base], userNamespace: false, unsharePath: unshare };
  const withUser = [unshare, '--user', '--map-root-user', ...base];
  if (works(withUser)) return { platform, namespacePrefix: withUser, userNamespace: true, unsharePath: unshare };
  return { platform, namespacePrefix: undefined, userNamespace: false, unsharePath: unshare };
}

let cached: SandboxCapabilities | undefined;

export function sandboxCapabilities(): SandboxCapabilities {
  cached ??= probeSandbox();
  return cached;
}
