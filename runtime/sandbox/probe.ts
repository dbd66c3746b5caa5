import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { confinedArgv } from './bwrap.js';
import { findCgroupHost, sweepStaleCgroups } from './cgroup.js';
import type { SandboxHost } from './sandbox-host.js';
import { hostArch } from './syscalls.js';

// What this host offers for confining a child, found once per runtime by real attempts (asynchronously: this
// runs in the extension host too, which must never block on a child process).
export function findExecutable(name: string): string | undefined {
  for (const dir of [
    '/usr/bin',
    '/bin',
    '/usr/sbin',
    '/sbin',
    '/usr/local/bin',
    ...(process.env.PATH ?? '').split(':'),
  ]) {
    if (dir.length === 0 || !dir.startsWith('/')) continue;
    const candidate = `${dir}/${name}`;
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return fs.realpathSync(candidate);
    } catch {
      continue;
    }
  }
  return undefined;
}

export interface Attempt {
  ok: boolean;
  stdout: string;
  detail: string;
}

// Generous timeout: a loaded machine must not silently lose its sandbox because the probe was slow.
export function attempt(argv: string[], options: { input?: Buffer; fds?: Buffer[] } = {}): Promise<Attempt> {
  const [command, ...args] = argv;
  if (command === undefined) return Promise.resolve({ ok: false, stdout: '', detail: 'empty command' });
  return new Promise((resolve) => {
    const child = execFile(
      command,
      args,
      { env: {}, timeout: 20_000, killSignal: 'SIGKILL', maxBuffer: 1 << 20, encoding: 'utf8' },
      (error, stdout, stderr) => {
        resolve({
          ok: error === null,
          stdout,
          detail: error === null ? '' : (stderr.trim() || error.message).slice(0, 300),
        });
      },
    );
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(options.input);
  });
}

async function probe(bubblewrapPath: string | null | undefined): Promise<SandboxHost> {
  const platform = process.platform;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const none: SandboxHost = {
    platform,
    arch: hostArch(),
    isRoot,
    bwrap: undefined,
    bwrapProblem: `no OS sandbox on ${platform}`,
    setpriv: undefined,
    prlimit: undefined,
    namespacePrefix: undefined,
    userNamespace: false,
    unsharePath: undefined,
    cgroups: undefined,
    cgroupProblem: `no cgroups on ${platform}`,
  };
  if (platform !== 'linux') return none;
  const cgroups = findCgroupHost();
  if ('host' in cgroups) sweepStaleCgroups(cgroups.host);
  const host: SandboxHost = {
    ...none,
    bwrapProblem: undefined,
    ...('host' in cgroups ? { cgroups: cgroups.host, cgroupProblem: undefined } : { cgroupProblem: cgroups.problem }),
    setpriv: findExecutable('setpriv'),
    prlimit: findExecutable('prlimit'),
    unsharePath: findExecutable('unshare'),
  };
  const [bwrap, fallback] = await Promise.all([probeBwrap(host, bubblewrapPath), probeUnshare(host)]);
  return { ...host, ...bwrap, ...fallback };
}

// A real confined start: the same argv a run gets, running `true` from the host inside the read-only root.
async function probeBwrap(
  host: SandboxHost,
  requested: string | null | undefined,
): Promise<Pick<SandboxHost, 'bwrap' | 'bwrapProblem'>> {
  const install = 'install the "bubblewrap" package (Debian/Ubuntu/Fedora/Arch: bubblewrap)';
  if (requested === null)
    return {
      bwrap: undefined,
      bwrapProblem: `bubblewrap turned off for this runtime (bubblewrapPath: null); otherwise ${install}`,
    };
  const bwrap = requested === undefined ? findExecutable('bwrap') : executable(requested);
  if (bwrap === undefined)
    return {
      bwrap: undefined,
      bwrapProblem: `bubblewrap (bwrap) not found${requested === undefined ? '' : ` at ${requested}`}: ${install}`,
    };
  if (host.arch === undefined)
    return { bwrap: undefined, bwrapProblem: `no seccomp syscall table for ${process.arch}` };
  if (host.isRoot && host.setpriv === undefined)
    return { bwrap: undefined, bwrapProblem: 'setpriv (util-linux) not found: needed to drop root inside the sandbox' };
  if (host.prlimit === undefined)
    return {
      bwrap: undefined,
      bwrapProblem: 'prlimit (util-linux) not found: needed to bound tasks, files and cores inside the sandbox',
    };
  const truePath = findExecutable('true');
  if (truePath === undefined)
    return { bwrap: undefined, bwrapProblem: 'no `true` executable to probe bubblewrap with' };
  const argv = confinedArgv({
    host: { ...host, bwrap },
    binds: [{ source: truePath, dest: '/ptc/true' }],
    tmpBytes: 1 << 20,
    seccompFd: undefined,
    command: ['/ptc/true'],
  });
  const result = await attempt(argv);
  return result.ok
    ? { bwrap, bwrapProblem: undefined }
    : { bwrap: undefined, bwrapProblem: `bubblewrap is installed but cannot create a sandbox here (${result.detail})` };
}

async function probeUnshare(host: SandboxHost): Promise<Pick<SandboxHost, 'namespacePrefix' | 'userNamespace'>> {
  const unshare = host.unsharePath;
  if (unshare === undefined) return { namespacePrefix: undefined, userNamespace: false };
  // --kill-child: when unshare dies, the namespace's first process dies, and the kernel then kills the whole namespace
  const base = ['--net', '--pid', '--fork', '--kill-child'];
  if (host.isRoot && (await attempt([unshare, ...base, '/bin/sh', '-c', 'exit 0'])).ok)
    return { namespacePrefix: [unshare, ...base], userNamespace: false };
  const withUser = [unshare, '--user', '--map-root-user', ...base];
  if ((await attempt([...withUser, '/bin/sh', '-c', 'exit 0'])).ok)
    return { namespacePrefix: withUser, userNamespace: true };
  return { namespacePrefix: undefined, userNamespace: false };
}

// A path the caller named, resolved as findExecutable resolves a found one; undefined where nothing executable is.
function executable(file: string): string | undefined {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile() ? fs.realpathSync(file) : undefined;
  } catch {
    return undefined;
  }
}

// The environment's bubblewrap choice, for hosts that set no `bubblewrapPath`: PTC_BWRAP names the executable. A
// path where none is (`PTC_BWRAP=/nonexistent`) makes this host one without bubblewrap, through the same probe: how
// CI and the tests run everything with the OS sandbox unavailable on a machine that has it.
export const BWRAP_ENV = 'PTC_BWRAP';

export function chosenBubblewrap(bubblewrapPath: string | null | undefined): string | null | undefined {
  if (bubblewrapPath !== undefined) return bubblewrapPath;
  const fromEnv = process.env[BWRAP_ENV];
  return fromEnv === undefined || fromEnv === '' ? undefined : fromEnv;
}

// What `ptc doctor` shows of the choice: the variable that makes it and the bubblewrap it names, if it names one.
export function bubblewrapChoice(): { env: string; path: string | null | undefined } {
  return { env: BWRAP_ENV, path: chosenBubblewrap(undefined) };
}

const cached = new Map<string, Promise<SandboxHost>>();

// Probed once per bubblewrap choice, for the life of the host process.
export function sandboxHost(requestedPath?: string | null): Promise<SandboxHost> {
  const bubblewrapPath = chosenBubblewrap(requestedPath);
  // null (bubblewrap turned off) is its own choice: `?? ''` used to share the default's cached host with it
  const key = JSON.stringify(bubblewrapPath === undefined ? '' : bubblewrapPath);
  let host = cached.get(key);
  if (host === undefined) {
    host = probe(bubblewrapPath);
    cached.set(key, host);
  }
  return host;
}
