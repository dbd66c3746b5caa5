import type { BindingNamespace } from '../api.js';
import type { RunResult } from '../protocol/run-result.js';

export type CassetteSave = { ok: true; path: string; calls: number } | { ok: false; message: string };

export type ReplaySetup =
  | { ok: true; namespaces: BindingNamespace[]; finish: (result: RunResult) => RunResult }
  | { ok: false; message: string };

// The record/replay layer (runtime/replay) as the notebook runner uses it.
export interface CassetteLayer {
  // writes the calls of a finished run as a cassette
  save(input: { cassettePath: string; result: RunResult }): Promise<CassetteSave>;
  // namespaces that answer from the cassette (no handler runs); `finish` attaches the replay report
  replay(input: { cassettePath: string; namespaces: BindingNamespace[] }): Promise<ReplaySetup>;
}
