import type { Language, SandboxLevel } from '../index.js';
import { parseCommandLine, UsageError } from './usage-error.js';

export interface RunFlags {
  file: string;
  language: Language | undefined;
  bindings: string | undefined;
  mode: 'mock' | 'live';
  limits: LimitFlags;
  json: boolean;
  record: string | undefined;
  replay: string | undefined;
  deterministic: boolean;
  // seeds mock fault injection (`failRate`), so the same calls fail again
  seed: number | undefined;
  // writes the run as a PTC trace (JSON Lines, docs/import.md) that `ptc import` reads back
  trace: string | undefined;
}

// A non-negative integer flag value, or a UsageError naming the flag.
export function integer(flag: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw)) throw new UsageError(`--${flag} expects a positive integer, got "${raw}"`);
  return Number(raw);
}

// One of the allowed words, or a UsageError naming the flag and the choices.
export function oneOf<T extends string>(flag: string, raw: string | undefined, allowed: readonly T[]): T | undefined {
  if (raw === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(raw)) throw new UsageError(`--${flag} expects one of ${allowed.join('|')}, got "${raw}"`);
  return raw as T;
}

// The limit flags of every command that runs programs: their parseArgs options and their parsing.
export const LIMIT_OPTIONS = {
  'timeout-ms': { type: 'string' },
  'max-output-bytes': { type: 'string' },
  'memory-mb': { type: 'string' },
  'tmp-mb': { type: 'string' },
  'max-calls': { type: 'string' },
  sandbox: { type: 'string' },
} as const;

export interface LimitFlags {
  timeoutMs?: number;
  maxOutputBytes?: number;
  memoryMb?: number;
  tmpMb?: number;
  // binding calls per run (default: 1,000 with --mode live, else no limit)
  maxCalls?: number;
  sandbox?: SandboxLevel;
}

// The limits given on the command line, each checked (a UsageError names a bad one); absent flags stay absent.
export function limitFlags(values: { [K in keyof typeof LIMIT_OPTIONS]?: string | undefined }): LimitFlags {
  const limits: LimitFlags = {};
  const timeoutMs = integer('timeout-ms', values['timeout-ms']);
  const maxOutputBytes = integer('max-output-bytes', values['max-output-bytes']);
  const memoryMb = integer('memory-mb', values['memory-mb']);
  const tmpMb = integer('tmp-mb', values['tmp-mb']);
  const maxCalls = integer('max-calls', values['max-calls']);
  if (maxCalls === 0) throw new UsageError('--max-calls expects a positive integer, got "0"');
  const sandbox = oneOf('sandbox', values.sandbox, ['required', 'best-effort', 'off'] as const);
  if (timeoutMs !== undefined) limits.timeoutMs = timeoutMs;
  if (maxOutputBytes !== undefined) limits.maxOutputBytes = maxOutputBytes;
  if (memoryMb !== undefined) limits.memoryMb = memoryMb;
  if (tmpMb !== undefined) limits.tmpMb = tmpMb;
  if (maxCalls !== undefined) limits.maxCalls = maxCalls;
  if (sandbox !== undefined) limits.sandbox = sandbox;
  return limits;
}

// Parses `ptc run` flags; any unknown flag or bad value is a UsageError naming it.
export function parseRunFlags(argv: string[]): RunFlags {
  const parsed = parseCommandLine(argv, {
    language: { type: 'string' },
    bindings: { type: 'string' },
    mode: { type: 'string' },
    ...LIMIT_OPTIONS,
    json: { type: 'boolean' },
    record: { type: 'string' },
    replay: { type: 'string' },
    deterministic: { type: 'boolean' },
    seed: { type: 'string' },
    trace: { type: 'string' },
  });
  const { values, positionals } = parsed;
  if (positionals.length !== 1)
    throw new UsageError(positionals.length === 0 ? 'missing program file' : `expected one program file, got ${positionals.length}`);
  if (values.record !== undefined && values.replay !== undefined) throw new UsageError('--record and --replay cannot be combined');
  return {
    file: positionals[0] as string,
    language: oneOf('language', values.language, ['typescript', 'python'] as const),
    bindings: values.bindings,
    mode: oneOf('mode', values.mode, ['mock', 'live'] as const) ?? 'mock',
    limits: limitFlags(values),
    json: values.json === true,
    record: values.record,
    replay: values.replay,
    deterministic: values.deterministic === true,
    seed: integer('seed', values.seed),
    trace: values.trace,
  };
}

export function languageFromFile(file: string): Language | undefined {
  if (/\.(ts|mts|cts)$/.test(file)) return 'typescript';
  if (/\.py$/.test(file)) return 'python';
  return undefined;
}
