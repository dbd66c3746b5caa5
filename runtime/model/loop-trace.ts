import { bindingsOf, encodeRecords, programRecords } from '../import/trace-writer.js';
import { TRACE_VERSION } from '../import/trace-format.js';
import type { SdkSource } from '../sdk/sdk-source.js';
import type { LoopOutcome } from './agent-loop.js';

export interface LoopTraceInput {
  outcome: LoopOutcome;
  task: string;
  // provider:model, never a key
  model: string;
  module?: SdkSource;
  producer?: string;
  // ISO time the loop started; each turn's programs carry their own start when the caller knows it
  startedAt?: string;
}

// The agent loop as a PTC trace (docs/import.md): the task as the user message, every program the model wrote
// with its calls and result, the model's words between them, and the final answer; `ptc import` reads it back.
export function loopTraceLines(input: LoopTraceInput): string[] {
  const records: Record<string, unknown>[] = [
    { type: 'ptc-trace', version: TRACE_VERSION, producer: input.producer ?? 'ptc agent loop' },
  ];
  const results = input.outcome.turns.flatMap((t) =>
    t.steps.flatMap((s) => (s.run.kind === 'result' ? [s.run.result] : [])),
  );
  const namespaces = bindingsOf({ module: input.module, calls: results.flatMap((r) => r.calls) });
  if (namespaces.length > 0) records.push({ type: 'bindings', namespaces });
  records.push({ type: 'message', role: 'user', text: input.task });
  for (const turn of input.outcome.turns) {
    // what the model said alongside its tool calls; the final answer is the last assistant message
    if (turn.reply.text !== '') records.push({ type: 'message', role: 'assistant', text: turn.reply.text });
    for (const step of turn.steps) {
      if (step.run.kind !== 'result') continue;
      records.push(
        ...programRecords({
          id: step.program.id,
          program: step.program.source,
          language: step.program.language,
          result: step.run.result,
          model: input.model,
          ...(step.program.description === undefined ? {} : { description: step.program.description }),
        }),
      );
    }
  }
  return encodeRecords(records);
}
