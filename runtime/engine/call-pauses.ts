import type { CallRecord } from '../protocol/run-result.js';
import { pauseReason, type CallDecision, type PauseReason, type RunPauses } from '../protocol/call-pause.js';
import type { RunState } from './run-state.js';
import { errorMessage } from '../output/error-message.js';

// One run's paused calls on the runtime's side, wherever they are held (the bindings host, or the runtime's own
// dispatcher in a replay): while a call waits the deadline stands still, the decision and the wait are written on
// the call's record, and a run that ends (Stop) stops the wait.
export interface RunPauseLink {
  // for calls the runtime dispatches itself: holds the calls the gate stops
  gate(record: CallRecord): Promise<CallDecision> | undefined;
  // how a held call goes on (also for the calls a bindings host holds)
  decide(record: CallRecord, reason: PauseReason): Promise<CallDecision>;
}

export function linkPauses(session: RunState, pauses: RunPauses): RunPauseLink {
  let stepping = false;
  const decide = async (record: CallRecord, reason: PauseReason): Promise<CallDecision> => {
    const signal = session.ended;
    if (signal.aborted) return { kind: 'throw', message: 'run settled' };
    session.pauseBegins();
    const began = performance.now();
    try {
      const stop = new Promise<never>((_, reject) =>
        signal.addEventListener('abort', () => reject(new Error('run settled')), { once: true }),
      );
      const call = { id: record.id, global: record.global, name: record.name, args: record.args, reason };
      const { decision, by } = await Promise.race([pauses.decide(call, signal), stop]);
      if (decision.step === true) stepping = true;
      record.pause = {
        reason,
        decision: decision.kind,
        by,
        ...(decision.kind === 'continue' && decision.args !== undefined ? { args: decision.args } : {}),
        pausedMs: Math.round((performance.now() - began) * 1000) / 1000,
      };
      return decision;
    } catch (error) {
      // the run ended while the call waited (its answer is dropped), or a decider failed: the call fails saying so
      return { kind: 'throw', message: signal.aborted ? 'run settled' : `no decision: ${errorMessage(error)}` };
    } finally {
      session.pauseEnds();
    }
  };
  return {
    decide,
    gate: (record) => {
      const reason = pauseReason(pauses.gate, record, stepping);
      if (reason === undefined) return undefined;
      if (reason !== 'fork') stepping = false;
      return decide(record, reason);
    },
  };
}
