import type { JsonValue } from '../protocol/json-value.js';

// What a wasm engine's probe program must find refused, each class by several real attempts (the same classes the
// OS sandbox proof tries: read outside, write outside, network, spawn, plus reaching a host object).
export const WASM_PROBE_CLASSES = ['read-outside', 'write-outside', 'network', 'spawn', 'host-object'] as const;

export type WasmVerdict = { ok: true } | { ok: false; problem: string };

// The probe returns { refused: { "<class>:<attempt>": boolean } }: proven only when every attempt of every class
// ran and was refused (an attempt that succeeded names the way out).
export function judgeWasmProbe(value: JsonValue | undefined, failure: string | undefined): WasmVerdict {
  if (failure !== undefined) return { ok: false, problem: `the probe program failed: ${failure}` };
  const refused = value !== null && typeof value === 'object' && !Array.isArray(value) ? value.refused : undefined;
  if (refused === null || typeof refused !== 'object' || Array.isArray(refused))
    return { ok: false, problem: 'the probe returned no verdicts' };
  const seen = new Set<string>();
  for (const [attempt, verdict] of Object.entries(refused)) {
    if (verdict !== true) return { ok: false, problem: `${attempt} was not refused` };
    seen.add(attempt.split(':')[0] as string);
  }
  const untried = WASM_PROBE_CLASSES.filter((name) => !seen.has(name));
  return untried.length === 0 ? { ok: true } : { ok: false, problem: `the probe did not try ${untried.join(', ')}` };
}
