import { inspect } from 'node:util';

// One log line from a message and details: Errors with their stack, other values through util.inspect.
export function formatLogLine(message: string, details: readonly unknown[]): string {
  if (details.length === 0) return message;
  const parts = details.map((detail) => {
    if (detail instanceof Error) return detail.stack ?? `${detail.name}: ${detail.message}`;
    if (typeof detail === 'string') return detail;
    return inspect(detail, { depth: 4, breakLength: 120, maxArrayLength: 20, maxStringLength: 2_000 });
  });
  return `${message} ${parts.join(' ')}`;
}
