// The text of a thrown value for a message: its `message` when it has one (an Error of another realm too — a worker's,
// a WebAssembly guest's — which `instanceof Error` misses), else the value as a string.
export function errorMessage(error: unknown): string {
  if (error !== null && typeof error === 'object' && 'message' in error && typeof error.message === 'string')
    return error.message;
  return String(error);
}
