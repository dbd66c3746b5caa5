import type { RunLimits } from './session-types.js';
import type { CellMetadata } from '../notebook/schema.js';

// A cell's own `metadata.limits` win over the notebook-wide limits, so a tour cell can time out in 1.5 s.
export function cellLimits(base: RunLimits, cell: CellMetadata | undefined): RunLimits {
  const own = cell?.limits;
  if (own === undefined) return base;
  return {
    ...base,
    ...(own.timeoutMs === undefined ? {} : { timeoutMs: own.timeoutMs }),
    ...(own.maxOutputBytes === undefined ? {} : { maxOutputBytes: own.maxOutputBytes }),
    ...(own.memoryMb === undefined ? {} : { memoryMb: own.memoryMb }),
    ...(own.tmpMb === undefined ? {} : { tmpMb: own.tmpMb }),
    ...(own.maxCalls === undefined ? {} : { maxCalls: own.maxCalls }),
    ...(own.engine === undefined ? {} : { engine: own.engine }),
  };
}
