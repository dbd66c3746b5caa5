import { snapshotLossless } from '../json/lossless.js';
import type { FailureDetails } from '../protocol/program-wire.js';

// A failure that carries details to the program; any other thrown value reaches it as its message alone.
export class CallFailure extends Error {
  constructor(
    message: string,
    readonly details: FailureDetails,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

// The details of a thrown value (none unless it is a CallFailure, or wraps one as its cause).
export function failureDetails(thrown: unknown): FailureDetails | undefined {
  for (let at = thrown, depth = 0; at instanceof Error && depth < 4; at = at.cause, depth++) {
    if (at instanceof CallFailure)
      return at.details.code === undefined && at.details.data === undefined ? undefined : at.details;
  }
  return undefined;
}

// The details a failed call passes on: a finite number or string code, data that is lossless JSON (they travel to the
// program as they are); undefined when nothing is left.
export function keptDetails(thrown: unknown): FailureDetails | undefined {
  const found = failureDetails(thrown);
  if (found === undefined) return undefined;
  const details: FailureDetails = {};
  if ((typeof found.code === 'number' && Number.isFinite(found.code)) || typeof found.code === 'string')
    details.code = found.code;
  if (found.data !== undefined) {
    const snapshot = snapshotLossless(found.data);
    if (snapshot.ok) details.data = snapshot.value;
  }
  return details.code === undefined && details.data === undefined ? undefined : details;
}
