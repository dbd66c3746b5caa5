// The text of a thrown value for a message: its `message` when it has one (an Error of another realm too — a worker's,
// a WebAssembly guest's — which `instanceof Error` misses), else the value as a string. Never throws: a value whose
// `message` getter or string conversion throws (a module's code made it) is named as such.
export function errorMessage(error: unknown): string {
  try {
    if (error !== null && typeof error === 'object' && 'message' in error && typeof error.message === 'string')
      return error.message;
    return String(error);
  } catch {
    return 'an error that cannot be shown';
  }
}
