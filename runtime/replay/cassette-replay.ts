import type { BindingNamespace } from '../api.js';
import type { DeterministicSettings } from '../protocol/binding-call.js';
import type { RunResult } from '../protocol/run-result.js';
import type { Cassette } from './cassette-format.js';
import { DEFAULT_DETERMINISTIC } from './deterministic.js';
import { declaredFromCassette, replayNamespaces, type DeclaredNamespace } from './replayer.js';

// A loaded cassette made ready to serve one run, with no handler and no file system behind it: the namespaces, the
// clock and seed it replays with, and what marks the result as a replay.
export interface CassetteReplay {
  namespaces: BindingNamespace[];
  deterministic: DeterministicSettings | undefined;
  // marks the result as a replay and warns about recorded calls it did not use; a message where the run called a
  // binding with no cassette to answer it (the run then stands for nothing)
  finish(result: RunResult): string | undefined;
}

export function replayFromCassette(
  cassette: Cassette,
  options: {
    // the bindings module's declarations; without one the cassette's own calls name the functions
    declared?: DeclaredNamespace[];
    // --deterministic asked (true), refused (false) or left to the cassette (undefined)
    deterministic: boolean | undefined;
    warn: (message: string) => void;
    // where the cassette is, for messages
    where: string;
    // why there is no cassette at all (a cell never recorded): every call says so instead of diverging
    absent?: string;
  },
): CassetteReplay {
  const { warn } = options;
  const deterministic = replayDeterminism(cassette, options.deterministic, warn);
  const { absent } = options;
  const replay = replayNamespaces(
    cassette,
    options.declared ?? declaredFromCassette(cassette),
    absent === undefined ? {} : { absent },
  );
  return {
    namespaces: replay.namespaces,
    deterministic,
    finish: (result) => {
      result.replay = replay.report();
      result.mode = 'replay';
      if (absent !== undefined) return result.replay.diverged.length > 0 ? absent : undefined;
      if (result.replay.unused > 0)
        warn(`${result.replay.unused} recorded call(s) in ${options.where} were not used by this replay`);
      return undefined;
    },
  };
}

// A cassette recorded with a frozen clock replays with the same one, unless the caller said not to (and is told).
function replayDeterminism(
  cassette: Cassette,
  asked: boolean | undefined,
  warn: (message: string) => void,
): DeterministicSettings | undefined {
  if (asked === true) return cassette.deterministic ?? DEFAULT_DETERMINISTIC;
  if (asked === false) {
    if (cassette.deterministic !== undefined)
      warn('the cassette was recorded with --deterministic; add it to reproduce clock and random values');
    return undefined;
  }
  return cassette.deterministic;
}
