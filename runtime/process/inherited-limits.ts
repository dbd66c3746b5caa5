import fs from 'node:fs';

// The resource limits this process inherited (`ulimit`, prlimit, a CI runner's or a container's settings). Every
// child inherits them as well: a run is bound by the tighter of these and what it was configured with, and a failure
// caused by one names which applied. Read per run (cheap, and prlimit can change them while the host runs).
export interface InheritedLimits {
  // RLIMIT_CPU soft limit, seconds (undefined: unlimited)
  cpuSeconds?: number;
  // RLIMIT_AS soft limit, bytes (undefined: unlimited)
  addressSpaceBytes?: number;
}

const ROWS = { cpuSeconds: /^Max cpu time\s+(\S+)/m, addressSpaceBytes: /^Max address space\s+(\S+)/m } as const;

export function inheritedLimits(): InheritedLimits {
  let text: string;
  try {
    text = fs.readFileSync('/proc/self/limits', 'utf8');
  } catch {
    // not Linux (or no /proc): nothing is known, so nothing is reported as tighter
    return {};
  }
  const limits: InheritedLimits = {};
  for (const [key, row] of Object.entries(ROWS) as [keyof InheritedLimits, RegExp][]) {
    const soft = row.exec(text)?.[1];
    if (soft !== undefined && /^\d+$/.test(soft)) limits[key] = Number(soft);
  }
  return limits;
}

// "the address-space limit this process inherited (RLIMIT_AS 300 MiB, tighter than memoryMb 512)", the Python runner's
// wording too, when it is below the configured memoryMb.
export function tighterAddressSpace(memoryMb: number, limits: InheritedLimits = inheritedLimits()): string | undefined {
  const bytes = limits.addressSpaceBytes;
  if (bytes === undefined || bytes >= memoryMb * 1024 * 1024) return undefined;
  return `the address-space limit this process inherited (RLIMIT_AS ${Math.floor(bytes / (1024 * 1024))} MiB, tighter than memoryMb ${memoryMb})`;
}

// "the CPU time limit this process inherited (RLIMIT_CPU soft limit 2s, tighter than the run's 121s)" when it is below
// the run's own (or the run has none).
export function tighterCpu(
  configuredSeconds: number | undefined,
  limits: InheritedLimits = inheritedLimits(),
): string | undefined {
  const seconds = limits.cpuSeconds;
  if (seconds === undefined || (configuredSeconds !== undefined && seconds >= configuredSeconds)) return undefined;
  return `the CPU time limit this process inherited (RLIMIT_CPU soft limit ${seconds}s${configuredSeconds === undefined ? '' : `, tighter than the run's ${configuredSeconds}s`})`;
}
