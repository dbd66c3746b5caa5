import * as vscode from 'vscode';
import { TASK_LANGUAGE } from '../constants.js';
import { latestResultMeta } from '../notebook/output-meta.js';

// Context keys the walkthrough's steps complete on (package.json completionEvents `onContext:`). They are set from
// what a finished cell shows, so a step ticks however the run was started: keys, cell menu, palette, the result's
// buttons or Run All over a cell whose metadata says record or replay.
export const WALKTHROUGH_CONTEXT = {
  ran: 'ptcPlayground.walkthrough.ran',
  recorded: 'ptcPlayground.walkthrough.recorded',
  replayed: 'ptcPlayground.walkthrough.replayed',
  taskRan: 'ptcPlayground.walkthrough.taskRan',
} as const;

type Step = keyof typeof WALKTHROUGH_CONTEXT;

// Which walkthrough steps a finished cell's latest output completes.
export function stepsDoneBy(cell: { languageId: string; outputs: readonly { metadata?: unknown }[] }): Step[] {
  if (cell.languageId === TASK_LANGUAGE) return ['taskRan'];
  const meta = latestResultMeta(cell.outputs);
  if (meta === undefined) return [];
  const steps: Step[] = ['ran'];
  if (meta.cassette !== undefined) steps.push('recorded');
  if (meta.mode === 'replay') steps.push('replayed');
  return steps;
}

// Marks the steps a cell's run completed; each key is set once per window.
export class WalkthroughProgress {
  readonly #done = new Set<Step>();

  noteRun(cell: vscode.NotebookCell): void {
    for (const step of stepsDoneBy({ languageId: cell.document.languageId, outputs: cell.outputs })) {
      if (this.#done.has(step)) continue;
      this.#done.add(step);
      void vscode.commands.executeCommand('setContext', WALKTHROUGH_CONTEXT[step], true);
    }
  }
}
