import util from 'node:util';
import {
  MapCtor,
  MapPrototypeDelete,
  MapPrototypeGet,
  MapPrototypeSet,
  NumberPrototypeToFixed as toFixed,
  ObjectCreate,
  ObjectFreeze,
  ReflectApply,
  StringPrototypeSplit as split,
} from '../../json/primordials.js';

const formatWithOptions = util.formatWithOptions;
const INSPECT = { depth: 4, maxArrayLength: 100, maxStringLength: 10_000, breakLength: 120 } as const;
const ErrorCtor = Error;

export type Emit = (stream: 'stdout' | 'stderr', text: string) => void;

// util.format(INSPECT, ...args) without spreading (spread consults Array.prototype[Symbol.iterator]) and with an
// array-like of our own (writes to new indices of an array would call accessors planted on Array.prototype).
function format(args: unknown[], prefix?: unknown): string {
  const list = ObjectCreate(null) as { [index: number]: unknown; length: number };
  list[0] = INSPECT;
  let n = 1;
  if (prefix !== undefined) list[n++] = prefix;
  for (let i = 0; i < args.length; i++) list[n++] = args[i];
  list.length = n;
  return ReflectApply(formatWithOptions, undefined, list) as string;
}

// The program's `console`: one log entry per call, objects rendered like Node's console.
export function createConsole(emit: Emit): Console {
  const out = (...args: unknown[]) => emit('stdout', format(args));
  const err = (...args: unknown[]) => emit('stderr', format(args));
  const counts = new MapCtor<string, number>();
  const timers = new MapCtor<string, number>();
  // read here, after deterministic mode may have frozen the clock, but before the program can replace it
  const now = performance.now.bind(performance);
  const shim = {
    log: out,
    info: out,
    debug: out,
    warn: err,
    error: err,
    trace: (...args: unknown[]) => {
      const lines = split(new ErrorCtor().stack ?? '', '\n');
      let below = '';
      for (let i = 2; i < lines.length; i++) below += (i > 2 ? '\n' : '') + (lines[i] as string);
      emit('stderr', `Trace: ${format(args)}\n${below}`);
    },
    dir: (value: unknown) => out(value),
    table: (value: unknown) => out(value),
    assert: (condition: unknown, ...args: unknown[]) => {
      if (!condition) emit('stderr', format(args, 'Assertion failed'));
    },
    count: (label = 'default') => {
      const n = (MapPrototypeGet(counts, label) ?? 0) + 1;
      MapPrototypeSet(counts, label, n);
      out(`${label}: ${n}`);
    },
    countReset: (label = 'default') => void MapPrototypeDelete(counts, label),
    time: (label = 'default') => void MapPrototypeSet(timers, label, now()),
    timeEnd: (label = 'default') => {
      const start = MapPrototypeGet(timers, label);
      if (start !== undefined) out(`${label}: ${toFixed(now() - start, 3)}ms`);
      MapPrototypeDelete(timers, label);
    },
    timeLog: (label = 'default', ...args: unknown[]) => {
      const start = MapPrototypeGet(timers, label);
      if (start !== undefined) emit('stdout', format(args, `${label}: ${toFixed(now() - start, 3)}ms`));
    },
    group: (...args: unknown[]) => {
      if (args.length > 0) emit('stdout', format(args));
    },
    groupEnd: () => undefined,
  };
  return ObjectFreeze(shim) as unknown as Console;
}
