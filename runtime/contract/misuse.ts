// Misuse of the runtime API (bad options, bad bindings, use after dispose): thrown, never returned as a result.
export class RuntimeMisuseError extends TypeError {
  override readonly name = 'RuntimeMisuseError';
}

export function misuse(option: string, problem: string): RuntimeMisuseError {
  return new RuntimeMisuseError(`invalid ${option}: ${problem}`);
}

export function describeValue(value: unknown): string {
  if (typeof value === 'string') return `"${value.length > 60 ? `${value.slice(0, 60)}…` : value}" (string)`;
  if (typeof value === 'number' || typeof value === 'boolean') return `${String(value)} (${typeof value})`;
  if (value === null) return 'null';
  return typeof value;
}
