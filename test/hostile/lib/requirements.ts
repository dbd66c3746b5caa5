import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import type { Requirement } from './corpus-format.js';

// The interpreter the host-side helper (pty, SysV objects) runs with: python3's real executable, resolved once, so
// a version-manager shim on PATH does not cost seconds per fixture.
function resolvePython(): string {
  const r = spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' });
  const found = r.status === 0 ? r.stdout.trim() : '';
  return found.length > 0 ? found : 'python3';
}
export const HOST_PYTHON = resolvePython();

const read = (file: string): string | undefined => {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
};

// Why a requirement is not met on this host, or undefined when it is; each is a real look at the host.
function check(need: Requirement): string | undefined {
  switch (need) {
    case 'root':
      return process.getuid?.() === 0 ? undefined : 'not running as root';
    case 'core-in-cwd': {
      const pattern = read('/proc/sys/kernel/core_pattern')?.trim() ?? '';
      if (pattern.startsWith('|') || pattern.includes('/') || pattern === '')
        return `core_pattern "${pattern}" does not write cores to the working directory`;
      const soft = /^Max core file size\s+(\S+)/m.exec(read('/proc/self/limits') ?? '')?.[1];
      return soft === '0' ? 'RLIMIT_CORE is 0 for the suite (prlimit could not raise it)' : undefined;
    }
    case 'af-vsock':
      return (read('/proc/net/protocols') ?? '').includes('AF_VSOCK') ? undefined : 'the kernel has no AF_VSOCK';
    case 'io-uring': {
      const disabled = read('/proc/sys/kernel/io_uring_disabled')?.trim();
      return disabled === undefined || disabled === '0' ? undefined : `kernel.io_uring_disabled is ${disabled}`;
    }
    case 'x86-64':
      return process.arch === 'x64'
        ? undefined
        : `the program carries x86-64 machine code; this host is ${process.arch}`;
    case 'host-python':
      return spawnSync(HOST_PYTHON, ['-c', 'pass'], { stdio: 'ignore' }).status === 0
        ? undefined
        : `${HOST_PYTHON} does not run on the host`;
  }
}

const cache = new Map<Requirement, string | undefined>();

export function unmetRequirements(needs: readonly Requirement[]): string[] {
  const out: string[] = [];
  for (const need of needs) {
    if (!cache.has(need)) cache.set(need, check(need));
    const why = cache.get(need);
    if (why !== undefined) out.push(`${need}: ${why}`);
  }
  return out;
}
