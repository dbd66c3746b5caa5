import type { InspectorRun } from '../../webview/protocol/index.js';
import { MAX_KEPT_RUNS } from '../../webview/protocol/index.js';

// The recent runs of each cell (newest last), for the inspector's run list and diff.
export class RunHistory {
  readonly #runs = new Map<string, { run: InspectorRun; output: object }[]>();
  #sequence = 0;

  // Adds a run once per output: looking at the same output again returns the run already kept.
  add(cellKey: string, output: object, run: Omit<InspectorRun, 'id'>): InspectorRun {
    const list = this.#runs.get(cellKey) ?? [];
    const known = list.find((r) => r.output === output);
    if (known !== undefined) return known.run;
    const entry: InspectorRun = { ...run, id: `run-${++this.#sequence}` };
    list.push({ run: entry, output });
    if (list.length > MAX_KEPT_RUNS) list.splice(0, list.length - MAX_KEPT_RUNS);
    this.#runs.set(cellKey, list);
    return entry;
  }

  runs(cellKey: string): InspectorRun[] {
    return (this.#runs.get(cellKey) ?? []).map((r) => r.run);
  }

  forget(prefix: string): void {
    for (const key of [...this.#runs.keys()]) if (key.startsWith(prefix)) this.#runs.delete(key);
  }
}

// A cell's key in the history: its notebook and its id (or position when it has none).
export function cellKey(notebookUri: string, cellId: string | undefined, index: number): string {
  return `${notebookUri}#${cellId ?? `index-${index}`}`;
}
