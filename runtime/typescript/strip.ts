import { inheritedLimits } from '../process/inherited-limits.js';
import { stripWith, type AmaroTransform, type StripResult } from './strip-core.js';

export { stripFailure, type StripResult } from './strip-core.js';

// amaro (swc in wasm) strips types in place, blanking removed syntax so every position stays the author's.
let transform: Promise<AmaroTransform> | undefined;

// Loaded lazily: the wasm module is 3.5 MB and only TypeScript runs need it. A failed load is not kept: it can be
// this moment's (address space), and the next run tries again.
function loadTransform(): Promise<AmaroTransform> {
  transform ??= import('amaro').then(
    (m: { transformSync?: AmaroTransform; default?: { transformSync: AmaroTransform } }) => {
      const fn = m.transformSync ?? m.default?.transformSync;
      if (fn === undefined) throw new Error('amaro has no transformSync export');
      return fn;
    },
  );
  transform.catch(() => (transform = undefined));
  return transform;
}

// Why the stripper could not load: WebAssembly reserves far more address space than it uses, so an inherited
// RLIMIT_AS of a few GiB is the usual cause, and it is named.
function unavailable(thrown: unknown): StripResult {
  const text = String((thrown as { message?: unknown } | null)?.message ?? thrown);
  const limit = inheritedLimits().addressSpaceBytes;
  const why =
    limit === undefined
      ? ''
      : `; this process inherited an address-space limit (RLIMIT_AS ${Math.floor(limit / (1024 * 1024))} MiB), and WebAssembly reserves about 10 GiB of address space`;
  return {
    ok: false,
    unavailable: true,
    message: `could not load the TypeScript stripper (amaro, WebAssembly): ${text}${why}`,
  };
}

// Strips TypeScript from a program body; non-erasable syntax (enum, namespace, parameter properties) fails here.
export async function stripProgram(program: string): Promise<StripResult> {
  let strip: AmaroTransform;
  try {
    strip = await loadTransform();
  } catch (thrown) {
    return unavailable(thrown);
  }
  return stripWith(strip, program);
}
