import { inheritedLimits } from '../process/inherited-limits.js';
import { stripLoaded, type StripResult } from './strip-core.js';

export { stripFailure, type StripResult } from './strip-core.js';

// Why the stripper could not load: WebAssembly reserves far more address space than it uses, so an inherited
// RLIMIT_AS of a few GiB is the usual cause, and it is named.
function addressSpaceNote(): string {
  const limit = inheritedLimits().addressSpaceBytes;
  return limit === undefined
    ? ''
    : `; this process inherited an address-space limit (RLIMIT_AS ${Math.floor(limit / (1024 * 1024))} MiB), and WebAssembly reserves about 10 GiB of address space`;
}

// Strips TypeScript from a program body; non-erasable syntax (enum, namespace, parameter properties) fails here.
export function stripProgram(program: string): Promise<StripResult> {
  return stripLoaded(program, addressSpaceNote);
}
