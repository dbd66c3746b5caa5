import fs from 'node:fs';
import type { EngineChoice, Language, SandboxLevel } from '../index.js';
import { LIMITS } from '../index.js';
import { oneFile, parseCommandLine, UsageError, type FlagSpecs } from './usage-error.js';

export interface RunFlags {
  file: string;
  language: Language | undefined;
  bindings: string | undefined;
  mode: 'mock' | 'live';
  // --mode was given (with --fork: the calls after the fork go to its handlers)
  modeGiven: boolean;
  limits: LimitFlags;
  json: boolean;
  record: string | undefined;
  replay: string | undefined;
  deterministic: boolean;
  // seeds mock fault injection (`failRate`), so the same calls fail again
  seed: number | undefined;
  // writes the run as a PTC trace (JSON Lines, docs/import.md) that `ptc import` reads back
  trace: string | undefined;
  // how calls that need approval are answered (unset: ask on a terminal, else deny)
  approve: 'allow' | 'deny' | 'ask' | undefined;
  // `--fork N=<result.json>` (or `N=throw:<message>`): with --replay, run from call N with that answer
  fork: string | undefined;
}

// A non-negative integer flag value, or a UsageError naming the flag.
export function integer(flag: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw)) throw new UsageError(`--${flag} expects a positive integer, got "${raw}"`);
  return Number(raw);
}

function within(flag: string, value: number | undefined, min: number, max: number): void {
  if (value !== undefined && (value < min || value > max))
    throw new UsageError(`--${flag} expects ${min} to ${max}, got ${value}`);
}

// `--record`/`--replay` name one cassette file where one run is recorded (ptc run) and a folder of them where many
// are (ptc notebook: `<dir>/<notebook>/<cell>.json`): the wrong kind is refused before anything runs, saying which
// command takes which (a folder given to ptc run used to run the program and then fail to write).
export function cassetteFlag(
  flag: 'record' | 'replay',
  value: string | undefined,
  kind: 'file' | 'folder',
): string | undefined {
  if (value === undefined) return undefined;
  const stat = fs.statSync(value, { throwIfNoEntry: false });
  if (kind === 'file' && (stat?.isDirectory() === true || /[\\/]$/.test(value)))
    throw new UsageError(
      `--${flag} takes one cassette file, got the folder ${value} (ptc notebook --${flag} takes a folder)`,
    );
  if (kind === 'folder' && (stat === undefined ? /\.json$/i.test(value) : !stat.isDirectory()))
    throw new UsageError(
      `--${flag} takes a folder of cassettes, got the file ${value} (ptc run --${flag} takes one cassette file)`,
    );
  return value;
}

// One of the allowed words, or a UsageError naming the flag and the choices.
export function oneOf<T extends string>(flag: string, raw: string | undefined, allowed: readonly T[]): T | undefined {
  if (raw === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(raw))
    throw new UsageError(`--${flag} expects one of ${allowed.join('|')}, got "${raw}"`);
  return raw as T;
}

// The limit flags of every command that runs programs: how they parse, what help says of them.
export const LIMIT_OPTIONS = {
  'timeout-ms': {
    type: 'string',
    value: 'N',
    byDefault: String(LIMITS.timeoutMs.default),
    help: `wall-clock limit of one run (at most ${LIMITS.timeoutMs.max})`,
  },
  'max-output-bytes': {
    type: 'string',
    value: 'N',
    byDefault: String(LIMITS.maxOutputBytes.default),
    help: 'cap on what one run prints and returns (and on the bindings output shown)',
  },
  'memory-mb': {
    type: 'string',
    value: 'N',
    byDefault: String(LIMITS.memoryMb.default),
    help: 'memory limit of one run',
  },
  'tmp-mb': {
    type: 'string',
    value: 'N',
    byDefault: String(LIMITS.tmpMb.default),
    help: "size of the sandbox's in-memory temp folder",
  },
  'max-calls': {
    type: 'string',
    value: 'N',
    byDefault: '1000 live, none otherwise',
    help: 'the most binding calls one run may make',
  },
  sandbox: {
    type: 'string',
    choices: ['required', 'best-effort', 'off'],
    byDefault: 'best-effort',
    help: 'OS sandbox: required (refuse to run without it), best-effort, off',
  },
  engine: {
    type: 'string',
    choices: ['auto', 'native', 'wasm'],
    byDefault: 'auto',
    help: 'what runs programs: native (Node, CPython under the OS sandbox), wasm (QuickJS, isolated without the OS), auto (native where the OS sandbox holds)',
  },
} as const satisfies FlagSpecs;

export interface LimitFlags {
  timeoutMs?: number;
  maxOutputBytes?: number;
  memoryMb?: number;
  tmpMb?: number;
  // binding calls per run (default: 1,000 with --mode live, else no limit)
  maxCalls?: number;
  sandbox?: SandboxLevel;
  engine?: EngineChoice;
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
  // the command line's default is auto (the runtime's own default stays native for embedders)
  const engine = oneOf('engine', values.engine, ['auto', 'native', 'wasm'] as const) ?? 'auto';
  // a value outside what the runtime accepts is refused under the flag's own name, never silently capped
  within('timeout-ms', timeoutMs, 1, LIMITS.timeoutMs.max);
  within('max-output-bytes', maxOutputBytes, LIMITS.maxOutputBytes.min, LIMITS.maxOutputBytes.max);
  within('memory-mb', memoryMb, LIMITS.memoryMb.min, LIMITS.memoryMb.max);
  within('tmp-mb', tmpMb, LIMITS.tmpMb.min, LIMITS.tmpMb.max);
  if (timeoutMs !== undefined) limits.timeoutMs = timeoutMs;
  if (maxOutputBytes !== undefined) limits.maxOutputBytes = maxOutputBytes;
  if (memoryMb !== undefined) limits.memoryMb = memoryMb;
  if (tmpMb !== undefined) limits.tmpMb = tmpMb;
  if (maxCalls !== undefined) limits.maxCalls = maxCalls;
  if (sandbox !== undefined) limits.sandbox = sandbox;
  limits.engine = engine;
  return limits;
}

export const RUN_FLAGS = {
  language: {
    type: 'string',
    choices: ['typescript', 'python'],
    help: "the program's language (default: from the file name: .ts/.mts/.cts/.js/.mjs/.cjs or .py)",
  },
  bindings: {
    type: 'string',
    value: '<module>',
    help: 'the bindings module (.ts/.mjs/.js) whose functions the program calls',
  },
  mode: { type: 'string', choices: ['mock', 'live'], byDefault: 'mock', help: 'which handlers answer the calls' },
  record: {
    type: 'string',
    value: '<cassette.json>',
    help: "record the calls and answers to a cassette (with --mode's handlers)",
  },
  replay: { type: 'string', value: '<cassette.json>', help: 'answer the calls from a cassette instead of handlers' },
  deterministic: { type: 'boolean', help: 'freeze the clock and seed the random sources' },
  seed: { type: 'string', value: 'N', help: 'seed of mock fault injection (failRate), to repeat the same faults' },
  trace: { type: 'string', value: '<trace.jsonl>', help: 'also write the run as a PTC trace that ptc import reads' },
  approve: {
    type: 'string',
    choices: ['allow', 'deny', 'ask'],
    byDefault: 'ask on a terminal, else deny',
    help: 'how calls of bindings that need approval are answered',
  },
  fork: {
    type: 'string',
    value: '<n>=<result.json>',
    help: "with --replay: calls before n from the cassette, call n answered with the file (n=throw:<message> fails it), the rest replayed (or by --mode's handlers); --record saves the fork",
  },
  ...LIMIT_OPTIONS,
  json: { type: 'boolean', help: 'print the RunResult as one line of JSON instead of the report' },
} as const satisfies FlagSpecs;

export const REPLAY_WITH_MODE = '--replay and --mode cannot be combined (a replay runs no handler)';

// Parses `ptc run` flags; any unknown flag or bad value is a UsageError naming it.
export function parseRunFlags(argv: string[]): RunFlags {
  const { values, positionals } = parseCommandLine(argv, RUN_FLAGS, 'run');
  const file = oneFile(positionals, 'program file');
  if (values.fork !== undefined && values.replay === undefined)
    throw new UsageError('--fork needs --replay <cassette.json> (the run it forks)');
  // a fork is a new run: it may be saved as a cassette, and its calls after the fork may go to handlers
  if (values.record !== undefined && values.replay !== undefined && values.fork === undefined)
    throw new UsageError('--record and --replay cannot be combined (except with --fork, to save the fork)');
  // as ptc eval: a replay runs no handler, so a mode would be silently ignored
  if (values.replay !== undefined && values.mode !== undefined && values.fork === undefined)
    throw new UsageError(REPLAY_WITH_MODE);
  return {
    file,
    language: oneOf('language', values.language, ['typescript', 'python'] as const),
    bindings: values.bindings,
    mode: oneOf('mode', values.mode, ['mock', 'live'] as const) ?? 'mock',
    modeGiven: values.mode !== undefined,
    limits: limitFlags(values),
    json: values.json === true,
    record: cassetteFlag('record', values.record, 'file'),
    replay: cassetteFlag('replay', values.replay, 'file'),
    deterministic: values.deterministic === true,
    seed: integer('seed', values.seed),
    trace: values.trace,
    approve: oneOf('approve', values.approve, ['allow', 'deny', 'ask'] as const),
    fork: values.fork,
  };
}

export function languageFromFile(file: string): Language | undefined {
  // JavaScript is TypeScript without types: the same Node child runs it
  if (/\.(ts|mts|cts|js|mjs|cjs)$/.test(file)) return 'typescript';
  if (/\.py$/.test(file)) return 'python';
  return undefined;
}
