import * as vscode from 'vscode';
import { COMMANDS } from '../constants.js';
import {
  type CallBreakpoints,
  type CallDecision,
  callLabel,
  describeBreakpoints,
  type ForkSpec,
  mergeBreakpoints,
  type PauseControl,
  type PausedCall,
  type PauseRequest,
} from './call-pause-ui.js';

// A call that waits for a person: what it is, how to check an answer, and how the run goes on.
export interface WaitingCall {
  // which wait this is, unique in the window: a decision made for one wait (a notification, a quick pick opened
  // earlier) never decides a later one, even of the same call number in the same cell
  readonly key: number;
  readonly call: PausedCall;
  readonly control: PauseControl;
  readonly since: number;
  resolve(decision: CallDecision): void;
}

// Context key: some cell's call waits for a decision (the keybindings of Continue, Step, Answer… and Throw… need it).
export const CALL_PAUSED_CONTEXT = 'ptcPlayground.callPaused';

// Call breakpoints per cell and per notebook, and the calls that wait for a decision, per cell. Both live in the
// extension host, keyed by document, so a paused cell stays paused (and shown so) while its editor is switched away
// from and back to.
export class CallPauses implements vscode.NotebookCellStatusBarItemProvider, vscode.Disposable {
  readonly #onDidChange = new vscode.EventEmitter<void>();
  readonly onDidChangeCellStatusBarItems = this.#onDidChange.event;
  readonly #cellPoints = new WeakMap<vscode.NotebookCell, CallBreakpoints>();
  readonly #notebookPoints = new WeakMap<vscode.NotebookDocument, CallBreakpoints>();
  // a run's parallel calls can wait together: each cell's in the order they paused, the first one shown and decided
  readonly #waiting = new Map<vscode.NotebookCell, WaitingCall[]>();
  // the next run of a cell forks an earlier one from call N (Run from Call…)
  readonly #forks = new WeakMap<vscode.NotebookCell, ForkSpec>();
  #nextKey = 1;

  breakpointsOf(target: vscode.NotebookCell | vscode.NotebookDocument): CallBreakpoints | undefined {
    return 'document' in target ? this.#cellPoints.get(target) : this.#notebookPoints.get(target);
  }

  setBreakpoints(target: vscode.NotebookCell | vscode.NotebookDocument, points: CallBreakpoints | undefined): void {
    const merged = mergeBreakpoints(points);
    if ('document' in target) {
      if (merged === undefined) this.#cellPoints.delete(target);
      else this.#cellPoints.set(target, merged);
    } else if (merged === undefined) this.#notebookPoints.delete(target);
    else this.#notebookPoints.set(target, merged);
    this.#onDidChange.fire();
  }

  // The pauses of one run of `cell`: its breakpoints and the notebook's, decided by a person in this window.
  pausesFor(cell: vscode.NotebookCell, onWait?: (waiting: WaitingCall) => void): PauseRequest {
    const breakpoints = mergeBreakpoints(this.#notebookPoints.get(cell.notebook), this.#cellPoints.get(cell));
    const fork = this.#forks.get(cell);
    this.#forks.delete(cell);
    return {
      ...(breakpoints === undefined ? {} : { breakpoints }),
      ...(fork === undefined ? {} : { fork }),
      onPause: (call, control) => this.#wait(cell, call, control, onWait),
    };
  }

  // The next run of `cell` forks a run: calls before N as recorded, call N as edited.
  forkNext(cell: vscode.NotebookCell, fork: ForkSpec): void {
    this.#forks.set(cell, fork);
  }

  // The cell's first waiting call, or the wait `key` names while it still waits.
  waitingIn(cell: vscode.NotebookCell, key?: number): WaitingCall | undefined {
    const queue = this.#waiting.get(cell);
    return key === undefined ? queue?.[0] : queue?.find((entry) => entry.key === key);
  }

  // The cell a paused-call command acts on: the one given, else the active notebook's first paused cell, else any.
  target(cell: vscode.NotebookCell | undefined): vscode.NotebookCell | undefined {
    if (cell !== undefined && this.#waiting.has(cell)) return cell;
    const waiting = [...this.#waiting.keys()];
    const active = vscode.window.activeNotebookEditor?.notebook;
    return waiting.filter((c) => c.notebook === active).sort((a, b) => a.index - b.index)[0] ?? waiting[0];
  }

  // Goes on with the wait a person decided about (else the cell's first); false when it no longer waits.
  decide(cell: vscode.NotebookCell, decision: CallDecision, decided?: WaitingCall): boolean {
    const waiting = this.waitingIn(cell, decided?.key);
    if (waiting === undefined) return false;
    this.#settle(cell, waiting);
    waiting.resolve(decision);
    return true;
  }

  #wait(
    cell: vscode.NotebookCell,
    call: PausedCall,
    control: PauseControl,
    onWait?: (waiting: WaitingCall) => void,
  ): Promise<CallDecision> {
    return new Promise<CallDecision>((resolve, reject) => {
      // Stop, or the run ending another way: the call stays unanswered and the cell is no longer paused
      const onAbort = (): void => {
        this.#settle(cell, entry);
        reject(control.signal.reason instanceof Error ? control.signal.reason : new Error('the run ended'));
      };
      const entry: WaitingCall = {
        key: this.#nextKey++,
        call,
        control,
        since: Date.now(),
        resolve: (decision) => {
          control.signal.removeEventListener('abort', onAbort);
          resolve(decision);
        },
      };
      if (control.signal.aborted) {
        onAbort();
        return;
      }
      control.signal.addEventListener('abort', onAbort, { once: true });
      this.#waiting.set(cell, [...(this.#waiting.get(cell) ?? []), entry]);
      this.#changed();
      onWait?.(entry);
    });
  }

  #settle(cell: vscode.NotebookCell, entry: WaitingCall): void {
    const queue = this.#waiting.get(cell) ?? [];
    if (!queue.includes(entry)) return;
    const rest = queue.filter((other) => other !== entry);
    if (rest.length === 0) this.#waiting.delete(cell);
    else this.#waiting.set(cell, rest);
    this.#changed();
  }

  #changed(): void {
    void vscode.commands.executeCommand('setContext', CALL_PAUSED_CONTEXT, this.#waiting.size > 0);
    this.#onDidChange.fire();
  }

  provideCellStatusBarItems(cell: vscode.NotebookCell): vscode.NotebookCellStatusBarItem[] {
    if (cell.kind !== vscode.NotebookCellKind.Code) return [];
    const waiting = this.waitingIn(cell);
    if (waiting !== undefined) return pausedItems(cell, waiting, (this.#waiting.get(cell)?.length ?? 1) - 1);
    const points = mergeBreakpoints(this.#notebookPoints.get(cell.notebook), this.#cellPoints.get(cell));
    if (points === undefined) return [];
    const item = new vscode.NotebookCellStatusBarItem(
      `$(debug-breakpoint) ${describeBreakpoints(points, vscode.l10n.t)}`,
      vscode.NotebookCellStatusBarAlignment.Right,
    );
    item.tooltip = vscode.l10n.t('Runs of this cell pause at these binding calls. Click to change.');
    item.command = { title: vscode.l10n.t('Break on Calls…'), command: COMMANDS.breakOnCalls, arguments: [cell] };
    return [item];
  }

  dispose(): void {
    this.#onDidChange.dispose();
  }
}

// The paused call with its arguments, then one item per choice (each a command with its own keybinding).
function pausedItems(
  cell: vscode.NotebookCell,
  waiting: WaitingCall,
  more: number,
): vscode.NotebookCellStatusBarItem[] {
  const { call, control } = waiting;
  const approval = call.reason === 'approval';
  const head = new vscode.NotebookCellStatusBarItem(
    approval
      ? `$(shield) ${vscode.l10n.t('call {0} needs approval: {1}', call.id, callLabel(call))}`
      : `$(debug-pause) ${vscode.l10n.t('paused at call {0}: {1}', call.id, callLabel(call))}`,
    vscode.NotebookCellStatusBarAlignment.Left,
  );
  head.tooltip = [
    vscode.l10n.t(
      "The program's deadline is paused while this call waits; the cell's clock keeps counting the wall time.",
    ),
    JSON.stringify(call.args, null, 2),
    ...(control.problem === undefined ? [] : [control.problem]),
  ].join('\n\n');
  head.command = { title: vscode.l10n.t('Decide Paused Call…'), command: COMMANDS.decideCall, arguments: [cell] };
  const choice = (text: string, command: string, tip: string): vscode.NotebookCellStatusBarItem => {
    const item = new vscode.NotebookCellStatusBarItem(text, vscode.NotebookCellStatusBarAlignment.Left);
    item.command = { title: tip, command, arguments: [cell] };
    item.tooltip = tip;
    return item;
  };
  const clock = new vscode.NotebookCellStatusBarItem(
    `$(watch) ${vscode.l10n.t('deadline paused, wall clock running')}`,
    vscode.NotebookCellStatusBarAlignment.Right,
  );
  clock.tooltip = vscode.l10n.t(
    "The program's time limit does not count this wait; the cell's elapsed time (the wall clock) does.",
  );
  if (more > 0) clock.text += ` · ${vscode.l10n.t('{0} more call(s) waiting', more)}`;
  const problem =
    control.problem === undefined
      ? []
      : [
          new vscode.NotebookCellStatusBarItem(
            `$(error) ${control.problem}`,
            vscode.NotebookCellStatusBarAlignment.Left,
          ),
        ];
  if (approval)
    return [
      head,
      ...problem,
      choice(`$(check) ${vscode.l10n.t('Approve')}`, COMMANDS.continueCall, vscode.l10n.t('Approve the call (F5)')),
      choice(
        `$(edit) ${vscode.l10n.t('Edit Arguments…')}`,
        COMMANDS.editCallArguments,
        vscode.l10n.t('Approve with edited arguments (Alt+Shift+E)'),
      ),
      choice(
        `$(circle-slash) ${vscode.l10n.t('Deny')}`,
        COMMANDS.denyCall,
        vscode.l10n.t('Deny the call (Alt+Shift+D)'),
      ),
      clock,
    ];
  return [
    head,
    ...problem,
    choice(
      `$(debug-continue) ${vscode.l10n.t('Continue')}`,
      COMMANDS.continueCall,
      vscode.l10n.t('Let the handler answer as configured (F5)'),
    ),
    choice(
      `$(reply) ${vscode.l10n.t('Answer…')}`,
      COMMANDS.answerCall,
      vscode.l10n.t('Answer with a JSON value instead of the handler (Alt+Shift+A)'),
    ),
    choice(
      `$(error) ${vscode.l10n.t('Throw…')}`,
      COMMANDS.throwCall,
      vscode.l10n.t("Fail the call with a message: the program's catch runs (Alt+Shift+T)"),
    ),
    choice(
      `$(debug-step-over) ${vscode.l10n.t('Step')}`,
      COMMANDS.stepCall,
      vscode.l10n.t('Let the handler answer and pause at the next call (F10)'),
    ),
    clock,
  ];
}
