import path from 'node:path';
import type {
  BindingNamespace,
  CodeRunRequest,
  CodeRunSpec,
  EngineChoice,
  RuntimeOptions,
  SandboxLevel,
} from '../api.js';
import type { DeterministicSettings } from '../protocol/binding-call.js';
import { LanguageSchema } from '../protocol/run-result.js';
import { identifierProblem, memberPropertyProblem } from './identifiers.js';
import { LIMITS } from './limits.js';
import { describeValue, misuse } from './misuse.js';

const SANDBOX_LEVELS: readonly SandboxLevel[] = ['required', 'best-effort', 'off'];
export const ENGINE_CHOICES: readonly EngineChoice[] = ['auto', 'native', 'wasm'];

function positiveInt(option: string, value: unknown, min: number, max: number | undefined): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    throw misuse(option, `expected an integer ≥ ${min}, got ${describeValue(value)}`);
  }
  return max === undefined ? value : Math.min(value, max);
}

// Reads each binding field exactly once (getters may be hostile) and checks the portable-identifier rules.
function resolveBindings(raw: unknown): readonly BindingNamespace[] {
  if (raw === undefined) return Object.freeze([]);
  if (!Array.isArray(raw)) throw misuse('bindings', `expected an array, got ${describeValue(raw)}`);
  const taken = new Set<string>();
  const namespaces = raw.map((ns: unknown, index): BindingNamespace => {
    const at = `bindings[${index}]`;
    if (ns === null || typeof ns !== 'object') throw misuse(at, `expected an object, got ${describeValue(ns)}`);
    const record = ns as Record<string, unknown>;
    const global = record.global;
    const globalProblem = identifierProblem(global);
    if (globalProblem !== undefined) throw misuse(`${at}.global`, globalProblem);
    const globalName = global as string;
    if (taken.has(globalName)) throw misuse(`${at}.global`, `"${globalName}" is declared twice`);
    taken.add(globalName);
    const functionsRaw = record.functions;
    if (functionsRaw === null || typeof functionsRaw !== 'object') {
      throw misuse(`${at}.functions`, `expected an object, got ${describeValue(functionsRaw)}`);
    }
    const functions: Record<string, BindingNamespace['functions'][string]> = Object.create(null);
    for (const name of Object.keys(functionsRaw)) {
      const fn: unknown = (functionsRaw as Record<string, unknown>)[name];
      if (typeof fn !== 'function')
        throw misuse(`${at}.functions[${JSON.stringify(name)}]`, `expected a function, got ${describeValue(fn)}`);
      Object.defineProperty(functions, name, { value: fn, enumerable: true });
    }
    const errorRaw = record.errorClass;
    let errorClass: BindingNamespace['errorClass'];
    if (errorRaw !== undefined) {
      if (errorRaw === null || typeof errorRaw !== 'object')
        throw misuse(`${at}.errorClass`, `expected an object, got ${describeValue(errorRaw)}`);
      const e = errorRaw as Record<string, unknown>;
      const name = e.name;
      const member = e.memberNameProperty;
      const nameProblem = identifierProblem(name);
      if (nameProblem !== undefined) throw misuse(`${at}.errorClass.name`, nameProblem);
      if (taken.has(name as string))
        throw misuse(`${at}.errorClass.name`, `"${String(name)}" collides with another global or error class`);
      taken.add(name as string);
      const memberProblem = memberPropertyProblem(member);
      if (memberProblem !== undefined) throw misuse(`${at}.errorClass.memberNameProperty`, memberProblem);
      errorClass = { name: name as string, memberNameProperty: member as string };
    }
    Object.freeze(functions);
    return Object.freeze(
      errorClass === undefined
        ? { global: globalName, functions }
        : { global: globalName, functions, errorClass: Object.freeze(errorClass) },
    );
  });
  return Object.freeze(namespaces);
}

// Specs this module issued: run() and warm() accept only these, so a spec cannot be forged or rebuilt by spreading.
const issued = new WeakSet<object>();

// Whether `spec` came from resolveRequest (it is frozen, so it still holds what was validated).
export function isIssuedSpec(spec: unknown): spec is CodeRunSpec {
  return spec !== null && typeof spec === 'object' && issued.has(spec);
}

// Validates a request, applies deployment defaults and caps; throws a TypeError naming the bad option.
export function resolveRequest(request: CodeRunRequest, options: RuntimeOptions = {}): CodeRunSpec {
  if (request === null || typeof request !== 'object')
    throw misuse('request', `expected an object, got ${describeValue(request)}`);
  const language = LanguageSchema.safeParse(request.language);
  if (!language.success)
    throw misuse('language', `expected "typescript" or "python", got ${describeValue(request.language)}`);
  if (typeof request.program !== 'string')
    throw misuse('program', `expected a string, got ${describeValue(request.program)}`);
  const d = options.defaults ?? {};
  // a limit from the request, else the deployment's default, else the contract's, within the contract's bounds
  const limit = (name: 'timeoutMs' | 'maxOutputBytes' | 'memoryMb' | 'tmpMb' | 'maxPendingCalls'): number => {
    const bounds: { default: number; min?: number; max: number } = LIMITS[name];
    return positiveInt(name, request[name] ?? d[name] ?? bounds.default, bounds.min ?? 1, bounds.max);
  };
  const timeoutMs = limit('timeoutMs');
  const maxOutputBytes = limit('maxOutputBytes');
  const memoryMb = limit('memoryMb');
  const tmpMb = limit('tmpMb');
  const maxPendingCalls = limit('maxPendingCalls');
  const maxCallsRaw = request.maxCalls ?? d.maxCalls;
  const maxCalls =
    maxCallsRaw === undefined
      ? undefined
      : positiveInt('maxCalls', maxCallsRaw, LIMITS.maxCalls.min, LIMITS.maxCalls.max);
  const sandbox = request.sandbox ?? d.sandbox ?? 'best-effort';
  if (!SANDBOX_LEVELS.includes(sandbox))
    throw misuse('sandbox', `expected one of ${SANDBOX_LEVELS.join(', ')}, got ${describeValue(sandbox)}`);
  const engine = request.engine ?? d.engine ?? 'native';
  if (!ENGINE_CHOICES.includes(engine))
    throw misuse('engine', `expected one of ${ENGINE_CHOICES.join(', ')}, got ${describeValue(engine)}`);
  const cwdRaw = request.cwd ?? process.cwd();
  if (typeof cwdRaw !== 'string' || cwdRaw.length === 0 || cwdRaw.includes('\0'))
    throw misuse('cwd', `expected a path, got ${describeValue(cwdRaw)}`);
  if (!path.isAbsolute(cwdRaw)) throw misuse('cwd', `must be absolute, got ${describeValue(cwdRaw)}`);
  const signal = request.signal;
  if (signal !== undefined && !(signal instanceof AbortSignal))
    throw misuse('signal', `expected an AbortSignal, got ${describeValue(signal)}`);
  const onLog = request.onLog;
  if (onLog !== undefined && typeof onLog !== 'function')
    throw misuse('onLog', `expected a function, got ${describeValue(onLog)}`);
  const deterministic = resolveDeterministic(request.deterministic);
  const hosted = request.hosted;
  if (hosted !== undefined && (hosted === null || typeof hosted !== 'object' || typeof hosted.begin !== 'function'))
    throw misuse('hosted', `expected a bindings host lease, got ${describeValue(hosted)}`);
  const pauses = request.pauses;
  if (
    pauses !== undefined &&
    (pauses === null ||
      typeof pauses !== 'object' ||
      typeof pauses.decide !== 'function' ||
      typeof pauses.gate !== 'object')
  )
    throw misuse('pauses', `expected { gate, decide }, got ${describeValue(pauses)}`);
  // frozen: a field changed after validation (timeoutMs: Infinity…) would otherwise reach the backends unchecked
  const spec: CodeRunSpec = Object.freeze({
    ...(deterministic === undefined ? {} : { deterministic: Object.freeze(deterministic) }),
    ...(hosted === undefined ? {} : { hosted }),
    ...(pauses === undefined ? {} : { pauses }),
    resolved: true,
    language: language.data,
    program: request.program,
    bindings: resolveBindings(request.bindings),
    timeoutMs,
    maxOutputBytes,
    memoryMb,
    tmpMb,
    cwd: cwdRaw,
    sandbox,
    engine,
    signal,
    onLog,
    maxPendingCalls,
    maxCalls,
  });
  issued.add(spec);
  return spec;
}

// Deterministic mode (bindings engineer): a fixed clock instant and a 32-bit seed.
function resolveDeterministic(raw: unknown): DeterministicSettings | undefined {
  if (raw === undefined) return undefined;
  if (raw === null || typeof raw !== 'object')
    throw misuse('deterministic', `expected { epochMs, seed }, got ${describeValue(raw)}`);
  const { epochMs, seed } = raw as Record<string, unknown>;
  if (typeof epochMs !== 'number' || !Number.isSafeInteger(epochMs) || epochMs < 0)
    throw misuse('deterministic.epochMs', `expected an integer ≥ 0, got ${describeValue(epochMs)}`);
  if (typeof seed !== 'number' || !Number.isSafeInteger(seed) || seed < 0 || seed > 0xffffffff)
    throw misuse('deterministic.seed', `expected an integer 0..4294967295, got ${describeValue(seed)}`);
  return { epochMs, seed };
}
