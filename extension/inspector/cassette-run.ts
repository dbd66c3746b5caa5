import path from 'node:path';
import type { Cassette } from '../../runtime/replay/index.js';
import type { CallRecord, Language, RunResult } from '../../runtime/protocol/run-result.js';
import type { InspectorRun } from '../../webview/protocol/index.js';

// A cassette shown as a run in the inspector: its calls on a time axis (laid end to end: cassettes keep durations,
// not start times), no output or value, and no sandbox because nothing ran.
export function cassetteRun(input: { file: string; cassette: Cassette; language: Language; program?: string; modifiedAt?: Date }): Omit<InspectorRun, 'id'> {
  let clock = 0;
  const calls = input.cassette.calls.map((call, id): CallRecord => {
    const record: CallRecord = { id, global: call.global, name: call.name, args: call.args, ok: call.ok, startedAtMs: clock, durationMs: call.durationMs };
    clock += call.durationMs;
    if (call.ok) record.value = call.value;
    else record.message = call.message ?? 'the recorded run never saw this call answered';
    if (call.schemaViolation !== undefined) record.schemaViolation = call.schemaViolation;
    return record;
  });
  const result: RunResult = {
    language: input.language,
    logs: [],
    calls,
    sandbox: { network: 'allowed', filesystem: 'allowed', childProcess: 'allowed', enforcement: 'none', mechanisms: [] },
    durationMs: clock,
    mode: 'replay',
  };
  const name = path.basename(input.file, '.json');
  return {
    label: `cassette ${name} · ${calls.length} call(s)`,
    source: 'cassette',
    ...(input.modifiedAt === undefined ? {} : { createdAt: input.modifiedAt.toISOString() }),
    payload: { result, language: input.language, cellId: name, ...(input.program === undefined ? {} : { program: input.program }) },
  };
}
