// The record/replay layer: one API for `ptc run --record/--replay`, `ptc notebook` and the extension.
export { CASSETTE_VERSION, CassetteSchema, type Cassette } from './cassette-format.js';
export type { CassetteCall, DeterministicSettings } from '../protocol/binding-call.js';
export { formatCassette, loadCassette, parseCassette, saveCassette, type CassetteLoad } from './cassette-file.js';
export { cassetteFromResult, createRecorder, type Recorder } from './recorder.js';
export {
  declaredFrom,
  declaredFromCassette,
  declaredFromModule,
  replayNamespaces,
  type DeclaredNamespace,
  type Replay,
} from './replayer.js';
export { cassetteDrift } from './drift.js';
export { DEFAULT_DETERMINISTIC } from './deterministic.js';
export { replayFromCassette, type CassetteReplay } from './cassette-replay.js';
