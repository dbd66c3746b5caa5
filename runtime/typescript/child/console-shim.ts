import util from 'node:util';

const formatWithOptions = util.formatWithOptions;
const INSPECT = { depth: 4, maxArrayLength: 100, maxStringLength: 10_000, breakLength: 120 } as const;

export type Emit = (stream: 'stdout' | 'stderr', text: string) => void;

// The program's `console`: one log entry per call, objects rendered like Node's console.
export function createConsole(emit: Emit): Console {
  const out = (...args: unknown[]) => emit('stdout', formatWithOptions(INSPECT, ...args));
  const err = (...args: unknown[]) => emit('stderr', formatWithOptions(INSPECT, ...args));
  const counts = new Map<string, number>();
  const timers = new Map<string, number>();
  const shim = {
    log: out,
    info: out,
    debug: out,
    warn: err,
    error: err,
    trace: (...args: unknown[]) => {
      const stack = (new Error().stack ?? '').split('\n').slice(2).join('\n');
      emit('stderr', `Trace: ${formatWithOptions(INSPECT, ...args)}\n${stack}`);
    },
    dir: (value: unknown) => out(value),
    table: (value: unknown) => out(value),
    assert: (condition: unknown, ...args: unknown[]) => {
      if (!condition) err('Assertion failed', ...args);
    },
    count: (label = 'default') => {
      const n = (counts.get(label) ?? 0) + 1;
      counts.set(label, n);
      out(`${label}: ${n}`);
    },
    countReset: (label = 'default') => void counts.delete(label),
    time: (label = 'default') => void timers.set(label, performance.now()),
    timeEnd: (label = 'default') => {
      const start = timers.get(label);
      if (start !== undefined) out(`${label}: ${(performance.now() - start).toFixed(3)}ms`);
      timers.delete(label);
    },
    timeLog: (label = 'default', ...args: unknown[]) => {
      const start = timers.get(label);
      if (start !== undefined) out(`${label}: ${(performance.now() - start).toFixed(3)}ms`, ...args);
    },
    group: (...args: unknown[]) => {
      if (args.length > 0) out(...args);
    },
    groupEnd: () => undefined,
  };
  return Object.freeze(shim) as unknown as Console;
}
