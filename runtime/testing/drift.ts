import { canonicalJson } from '../json/lossless.js';
import type { RunResult } from '../protocol/run-result.js';
import type { CassetteCall } from '../protocol/binding-call.js';
import type { Cassette } from '../replay/cassette-format.js';
import { firstExactDifference, firstShapeDifference } from '../json/json-compare.js';

// Where live answers differ from the recorded ones (`ptc test --mode live`): matched like a replay (name and canonical
// arguments), then compared by value and by shape.
export interface DriftItem {
  kind: 'shape' | 'value' | 'outcome' | 'unrecorded' | 'unused';
  // `tools.lookupCity({"name":"Paris"})`
  call: string;
  detail: string;
}

const MAX_ARGS = 120;

function label(global: string, name: string, args: unknown): string {
  const text = canonicalJson(args as Parameters<typeof canonicalJson>[0]);
  return `${global}.${name}(${text.length > MAX_ARGS ? `${text.slice(0, MAX_ARGS)}…` : text})`;
}

export function callDrift(result: Pick<RunResult, 'calls'>, cassette: Cassette): DriftItem[] {
  const unused = new Map<string, CassetteCall[]>();
  for (const call of cassette.calls) {
    const key = `${call.global}\0${call.name}\0${canonicalJson(call.args)}`;
    unused.set(key, [...(unused.get(key) ?? []), call]);
  }
  const items: DriftItem[] = [];
  for (const live of result.calls) {
    const key = `${live.global}\0${live.name}\0${canonicalJson(live.args)}`;
    const recorded = unused.get(key)?.shift();
    const at = label(live.global, live.name, live.args);
    if (recorded === undefined) {
      items.push({ kind: 'unrecorded', call: at, detail: 'made live, but the cassette has no such call' });
      continue;
    }
    // a call the live run never saw answered says nothing about drift
    if (recorded.pending === true || (!live.ok && live.message === undefined)) continue;
    if (recorded.ok !== live.ok) {
      items.push({
        kind: 'outcome',
        call: at,
        detail: recorded.ok
          ? `recorded a value, live failed: ${live.message ?? ''}`
          : `recorded a failure (${recorded.message ?? ''}), live answered a value`,
      });
      continue;
    }
    if (!live.ok) {
      if (recorded.message !== live.message)
        items.push({
          kind: 'value',
          call: at,
          detail: `failure message changed: ${JSON.stringify(recorded.message)} → ${JSON.stringify(live.message)}`,
        });
      continue;
    }
    const shape = firstShapeDifference(recorded.value, live.value);
    if (shape !== undefined) {
      items.push({
        kind: 'shape',
        call: at,
        detail: `${shape.path}: ${shape.reason} (recorded ${shape.expected}, live ${shape.actual})`,
      });
      continue;
    }
    const value = firstExactDifference(recorded.value, live.value);
    if (value !== undefined)
      items.push({
        kind: 'value',
        call: at,
        detail: `${value.path}: recorded ${value.expected}, live ${value.actual}`,
      });
  }
  for (const calls of unused.values())
    for (const call of calls)
      items.push({
        kind: 'unused',
        call: label(call.global, call.name, call.args),
        detail: 'recorded, but not made live',
      });
  return items;
}
