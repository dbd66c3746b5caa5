import * as vscode from 'vscode';
import path from 'node:path';
import { defaultCassetteDir, type JsonValue, writeRunCassette } from '../../runtime/index.js';
import type { SessionService } from '../bindings/session-service.js';
import type { CommandOutcome } from '../commands/cell-commands.js';
import { targetCell, targetNotebook } from '../commands/target-cell.js';
import { COMMANDS } from '../constants.js';
import {
  type CallBreakpoints,
  type CallDecision,
  callLabel,
  conditionText,
  deniedMessage,
  describeBreakpoints,
  type ForkAnswer,
  forkOfRun,
  parseCondition,
  parseJsonText,
} from './call-pause-ui.js';
import type { CallPauses, WaitingCall } from './call-pauses.js';
import type { InspectorPanels } from '../inspector/inspector-panel.js';
import { latestPayload } from '../notebook/cell-results.js';

// The commands of call breakpoints and paused calls. Each takes the cell as its first argument (status bar items,
// `{ notebook, cellId }`) or acts on the paused cell of the active notebook; a second argument (the answer, the
// message, the edited arguments) skips the input box, for scripts and tests.

export interface DebugCommandDeps {
  pauses: CallPauses;
  bindings: SessionService;
  inspector: InspectorPanels;
}

type Waiting = { cell: vscode.NotebookCell; waiting: WaitingCall };

// A decision aimed at one wait (a notification's button): the cell and the wait's key.
interface WaitArg {
  cell: vscode.NotebookCell;
  waiting: number;
}

const waitArg = ({ cell, waiting }: Waiting): WaitArg => ({ cell, waiting: waiting.key });

function waitKey(arg: unknown): number | undefined {
  return arg !== null && typeof arg === 'object' && 'waiting' in arg && typeof arg.waiting === 'number'
    ? arg.waiting
    : undefined;
}

// The wait a command decides: the one `{ cell, waiting }` names while it still waits, else the first waiting call of
// the cell given (or of the active notebook).
function pausedTarget(pauses: CallPauses, arg: unknown): Waiting | undefined {
  const key = waitKey(arg);
  const given = key !== undefined && arg !== null && typeof arg === 'object' && 'cell' in arg ? arg.cell : arg;
  const cell = key !== undefined ? targetCell(given) : pauses.target(targetCell(given));
  const waiting = cell === undefined ? undefined : pauses.waitingIn(cell, key);
  return cell === undefined || waiting === undefined ? undefined : { cell, waiting };
}

const nothingPaused = (): CommandOutcome => ({ ok: false, message: vscode.l10n.t('No binding call is paused.') });
// a decision for one wait that has ended says so: it never falls through to another call
const nothingPausedFor = (arg: unknown): CommandOutcome =>
  waitKey(arg) === undefined
    ? nothingPaused()
    : { ok: false, message: vscode.l10n.t('That call no longer waits: it was decided in its cell, or its run ended.') };

// The person decided about `target.waiting` (perhaps after a prompt): that call goes on, never one that paused since.
function decide(pauses: CallPauses, target: Waiting, decision: CallDecision): CommandOutcome {
  return pauses.decide(target.cell, decision, target.waiting)
    ? { ok: true }
    : { ok: false, message: vscode.l10n.t('The call is no longer paused.') };
}

// JSON typed into an input box, checked as it is typed; `check` adds the binding's output schema.
async function askJson(options: {
  title: string;
  prompt: string;
  value: string;
  check?: (value: JsonValue) => Promise<string[]>;
}): Promise<JsonValue | undefined> {
  const text = await vscode.window.showInputBox({
    title: options.title,
    prompt: options.prompt,
    value: options.value,
    ignoreFocusOut: true,
    validateInput: async (typed) => {
      const parsed = parseJsonText(typed, vscode.l10n.t);
      if (!parsed.ok) return parsed.message;
      const problems = (await options.check?.(parsed.value)) ?? [];
      return problems.length === 0 ? undefined : vscode.l10n.t('Breaks the output schema: {0}', problems.join('; '));
    },
  });
  if (text === undefined) return undefined;
  const parsed = parseJsonText(text, vscode.l10n.t);
  return parsed.ok ? parsed.value : undefined;
}

// The steps of every decision that takes an input: find the paused call, take the input (given with the command, or
// asked for), decide; no input leaves the call waiting.
async function decideWithInput<T>(
  pauses: CallPauses,
  arg: unknown,
  options: {
    input: (target: Waiting) => Promise<T | undefined>;
    missing: string;
    decision: (input: T) => CallDecision;
  },
): Promise<CommandOutcome> {
  const target = pausedTarget(pauses, arg);
  if (target === undefined) return nothingPausedFor(arg);
  const input = await options.input(target);
  if (input === undefined) return { ok: false, message: options.missing };
  return decide(pauses, target, options.decision(input));
}

// Answer with… : the call resolves with a JSON value (checked against the binding's output schema; the runtime
// checks it again and asks once more with the complaint when it breaks the schema).
function answerCall(pauses: CallPauses, arg: unknown, given: unknown): Promise<CommandOutcome> {
  return decideWithInput(pauses, arg, {
    input: async ({ waiting: { call, control } }) =>
      given !== undefined
        ? (given as JsonValue)
        : askJson({
            title: vscode.l10n.t('Answer {0}', callLabel(call, 40)),
            prompt: vscode.l10n.t('The JSON value the call resolves with (no handler runs)'),
            value: 'null',
            check: (candidate) => control.checkAnswer(candidate),
          }),
    missing: vscode.l10n.t('No answer given: the call still waits.'),
    decision: (value) => ({ kind: 'answer', value }),
  });
}

function throwCall(pauses: CallPauses, arg: unknown, given: unknown): Promise<CommandOutcome> {
  return decideWithInput(pauses, arg, {
    input: async ({ waiting: { call } }) =>
      typeof given === 'string'
        ? given
        : vscode.window.showInputBox({
            title: vscode.l10n.t('Throw from {0}', callLabel(call, 40)),
            prompt: vscode.l10n.t("The message of the binding's error: the program's catch gets it"),
            value: vscode.l10n.t('failed at a breakpoint'),
            ignoreFocusOut: true,
            validateInput: (text) => (text.trim() === '' ? vscode.l10n.t('Type a message') : undefined),
          }),
    missing: vscode.l10n.t('No message given: the call still waits.'),
    decision: (message) => ({ kind: 'throw', message }),
  });
}

// An approval with edited arguments: the handler gets the edit, the program's call and the cassette keep both.
function editArguments(pauses: CallPauses, arg: unknown, given: unknown): Promise<CommandOutcome> {
  return decideWithInput(pauses, arg, {
    input: async ({ waiting: { call } }) =>
      given !== undefined
        ? (given as JsonValue)
        : askJson({
            title: vscode.l10n.t('Edit the arguments of {0}', callLabel(call, 40)),
            prompt: vscode.l10n.t('The arguments the handler gets (the program keeps its own)'),
            value: JSON.stringify(call.args),
          }),
    missing: vscode.l10n.t('No arguments given: the call still waits.'),
    decision: (args) => ({ kind: 'continue', args }),
  });
}

async function decideCall(pauses: CallPauses, arg: unknown): Promise<CommandOutcome> {
  const target = pausedTarget(pauses, arg);
  if (target === undefined) return nothingPausedFor(arg);
  const { call } = target.waiting;
  const choices: (vscode.QuickPickItem & { command: string })[] =
    call.reason === 'approval'
      ? [
          { label: `$(check) ${vscode.l10n.t('Approve')}`, command: COMMANDS.continueCall },
          { label: `$(edit) ${vscode.l10n.t('Approve with Edited Arguments…')}`, command: COMMANDS.editCallArguments },
          { label: `$(circle-slash) ${vscode.l10n.t('Deny')}`, command: COMMANDS.denyCall },
        ]
      : [
          { label: `$(debug-continue) ${vscode.l10n.t('Continue')}`, command: COMMANDS.continueCall },
          { label: `$(reply) ${vscode.l10n.t('Answer with…')}`, command: COMMANDS.answerCall },
          { label: `$(error) ${vscode.l10n.t('Throw…')}`, command: COMMANDS.throwCall },
          { label: `$(debug-step-over) ${vscode.l10n.t('Step to Next Call')}`, command: COMMANDS.stepCall },
        ];
  const picked = await vscode.window.showQuickPick(choices, {
    title: callLabel(call),
    placeHolder: JSON.stringify(call.args),
  });
  if (picked === undefined) return { ok: false, message: vscode.l10n.t('Nothing chosen: the call still waits.') };
  return (
    (await vscode.commands.executeCommand<CommandOutcome | undefined>(picked.command, waitArg(target))) ?? {
      ok: true,
    }
  );
}

type Scope = { target: vscode.NotebookCell | vscode.NotebookDocument };

// Break on Calls… : where runs of a cell (or of every cell of the notebook) pause. A second argument
// `{ scope: 'cell' | 'notebook', breakpoints }` sets them without asking (null clears).
async function breakOnCalls(deps: DebugCommandDeps, arg: unknown, given: unknown): Promise<CommandOutcome> {
  const cell = targetCell(arg);
  const notebook = cell?.notebook ?? targetNotebook(arg);
  if (notebook === undefined) return { ok: false, message: vscode.l10n.t('Open a PTC notebook first.') };
  if (given !== undefined && given !== null && typeof given === 'object' && 'breakpoints' in given) {
    const { scope, breakpoints } = given as { scope?: unknown; breakpoints: CallBreakpoints | null };
    const target = scope === 'notebook' || cell === undefined ? notebook : cell;
    deps.pauses.setBreakpoints(target, breakpoints ?? undefined);
    return { ok: true };
  }
  const scopes: (vscode.QuickPickItem & Scope)[] = [
    ...(cell === undefined
      ? []
      : [
          {
            label: vscode.l10n.t('This Cell'),
            description: describeBreakpoints(deps.pauses.breakpointsOf(cell), vscode.l10n.t),
            target: cell,
          },
        ]),
    {
      label: vscode.l10n.t('Every Cell of the Notebook'),
      description: describeBreakpoints(deps.pauses.breakpointsOf(notebook), vscode.l10n.t),
      target: notebook,
    },
  ];
  const scope =
    scopes.length === 1
      ? scopes[0]
      : await vscode.window.showQuickPick(scopes, { title: vscode.l10n.t('Break on Calls: where') });
  if (scope === undefined) return { ok: false, message: vscode.l10n.t('Breakpoints unchanged.') };
  const current = deps.pauses.breakpointsOf(scope.target) ?? {};
  type Choice = 'every' | 'bindings' | 'condition' | 'clear';
  const kinds: (vscode.QuickPickItem & { choice: Choice })[] = [
    { label: `$(debug-breakpoint) ${vscode.l10n.t('Every Call')}`, choice: 'every', picked: current.every === true },
    { label: `$(symbol-method) ${vscode.l10n.t('Chosen Bindings…')}`, choice: 'bindings' },
    { label: `$(filter) ${vscode.l10n.t('When an Argument Equals…')}`, choice: 'condition' },
    { label: `$(clear-all) ${vscode.l10n.t('Clear Breakpoints')}`, choice: 'clear' },
  ];
  const kind = await vscode.window.showQuickPick(kinds, {
    title: vscode.l10n.t('Break on Calls: which'),
    placeHolder: describeBreakpoints(deps.pauses.breakpointsOf(scope.target), vscode.l10n.t),
  });
  if (kind === undefined) return { ok: false, message: vscode.l10n.t('Breakpoints unchanged.') };
  if (kind.choice === 'clear') deps.pauses.setBreakpoints(scope.target, undefined);
  else if (kind.choice === 'every')
    deps.pauses.setBreakpoints(scope.target, { ...current, every: !(current.every === true) });
  else if (kind.choice === 'bindings') {
    const described = await deps.bindings.describe(notebook);
    const labels =
      described?.ok === true
        ? Object.entries(described.module.namespaces).flatMap(([global, ns]) =>
            Object.keys(ns.functions).map((name) => `${global}.${name}`),
          )
        : [];
    const chosen = new Set(current.bindings ?? []);
    const picked = await vscode.window.showQuickPick(
      [...new Set([...labels, ...chosen])].sort().map((label) => ({ label, picked: chosen.has(label) })),
      { title: vscode.l10n.t('Break on calls of'), canPickMany: true },
    );
    if (picked === undefined) return { ok: false, message: vscode.l10n.t('Breakpoints unchanged.') };
    const { bindings: _dropped, ...rest } = current;
    deps.pauses.setBreakpoints(scope.target, {
      ...rest,
      ...(picked.length === 0 ? {} : { bindings: picked.map((p) => p.label) }),
    });
  } else {
    const text = await vscode.window.showInputBox({
      title: vscode.l10n.t('Break when an argument equals'),
      prompt: vscode.l10n.t('[binding] $.path == JSON, e.g. tools.search $.q == "cats"'),
      value: (current.conditions ?? []).map(conditionText).at(-1) ?? '$.q == ""',
      ignoreFocusOut: true,
      validateInput: (typed) => {
        const parsed = parseCondition(typed, vscode.l10n.t);
        return parsed.ok ? undefined : parsed.message;
      },
    });
    const parsed = text === undefined ? undefined : parseCondition(text, vscode.l10n.t);
    if (parsed?.ok !== true) return { ok: false, message: vscode.l10n.t('Breakpoints unchanged.') };
    deps.pauses.setBreakpoints(scope.target, { ...current, conditions: [...(current.conditions ?? []), parsed.value] });
  }
  return { ok: true, message: describeBreakpoints(deps.pauses.breakpointsOf(scope.target), vscode.l10n.t) };
}

// Run from Call… : the cell's shown run again from call N, calls before N answered as they were, call N with an
// edited result (or error), the rest as the cell's mode says; then the inspector's diff shows the fork beside the run
// it forked. A second argument `{ at, value }` or `{ at, message }` skips the pickers.
async function forkFromCall(deps: DebugCommandDeps, arg: unknown, given: unknown): Promise<CommandOutcome> {
  const cell = targetCell(arg);
  if (cell === undefined) return { ok: false, message: vscode.l10n.t('Select a code cell first.') };
  const shown = latestPayload(cell)?.payload.result;
  if (shown === undefined)
    return { ok: false, message: vscode.l10n.t('This cell has no run to fork yet: run it first.') };
  const preset = (given ?? {}) as { at?: unknown; value?: unknown; message?: unknown; saveTo?: unknown };
  let at = typeof preset.at === 'number' ? preset.at : undefined;
  if (at === undefined) {
    const picked = await vscode.window.showQuickPick(
      [...shown.calls]
        .sort((a, b) => a.id - b.id)
        .map((call, index) => ({
          label: `${index + 1}. ${callLabel(call)}`,
          description: call.ok ? `→ ${JSON.stringify(call.value ?? null).slice(0, 80)}` : `✗ ${call.message ?? ''}`,
          at: index + 1,
        })),
      { title: vscode.l10n.t('Run from call: which call gets another answer?') },
    );
    if (picked === undefined) return { ok: false, message: vscode.l10n.t('Nothing forked.') };
    at = picked.at;
  }
  let answer: ForkAnswer | undefined =
    typeof preset.message === 'string'
      ? { ok: false, message: preset.message }
      : 'value' in preset
        ? { ok: true, value: preset.value as JsonValue }
        : undefined;
  if (answer === undefined) answer = await askForkAnswer(shown.calls[at - 1]);
  if (answer === undefined) return { ok: false, message: vscode.l10n.t('Nothing forked.') };
  const fork = forkOfRun(shown, at, answer, vscode.l10n.t);
  if (!fork.ok) return fork;
  deps.pauses.forkNext(cell, fork.value);
  // resolves once the cell has run: the execute handler is awaited by the command
  await vscode.commands.executeCommand('notebook.cell.execute', {
    ranges: [{ start: cell.index, end: cell.index + 1 }],
    document: cell.notebook.uri,
  });
  deps.inspector.open(cell, 'diff');
  const forked = latestPayload(cell)?.payload.result;
  if (forked === undefined || !forked.calls.some((call) => call.pause?.reason === 'fork'))
    return { ok: false, message: vscode.l10n.t('The fork did not run: the cell says why.') };
  if (typeof preset.saveTo === 'string') return saveFork(preset.saveTo, forked);
  void offerSave(cell, at, forked);
  return {
    ok: true,
    message: vscode.l10n.t('Ran from call {0}: the inspector shows the fork beside the run it forked.', at),
  };
}

type ShownResult = NonNullable<ReturnType<typeof latestPayload>>['payload']['result'];

// Save as Cassette… : the fork's calls (each with its pause: recording, edit) as a new cassette; the cell's own
// cassette stays as it was.
async function offerSave(cell: vscode.NotebookCell, at: number, forked: ShownResult): Promise<void> {
  const save = vscode.l10n.t('Save as Cassette…');
  const choice = await vscode.window.showInformationMessage(
    vscode.l10n.t(
      'Ran cell {0} from call {1}: the inspector shows the fork beside the run it forked.',
      cell.index + 1,
      at,
    ),
    save,
  );
  if (choice !== save || cell.notebook.uri.scheme !== 'file') return;
  const id = typeof cell.metadata.id === 'string' ? cell.metadata.id : `cell-${cell.index + 1}`;
  const target = await vscode.window.showSaveDialog({
    defaultUri: vscode.Uri.file(
      path.join(defaultCassetteDir(path.dirname(cell.notebook.uri.fsPath)), `${id}-fork-call-${at}.json`),
    ),
    filters: { [vscode.l10n.t('Cassettes')]: ['json'] },
  });
  if (target === undefined) return;
  const saved = await saveFork(target.fsPath, forked);
  if (saved.ok) void vscode.window.showInformationMessage(saved.message ?? '');
  else void vscode.window.showErrorMessage(saved.message);
}

async function saveFork(file: string, forked: ShownResult): Promise<CommandOutcome> {
  const written = await writeRunCassette(file, forked);
  return written.ok
    ? {
        ok: true,
        message: vscode.l10n.t('Saved the fork as a cassette of {0} call(s): {1}', written.calls, written.path),
      }
    : { ok: false, message: vscode.l10n.t('The fork was not saved: {0}', written.message) };
}

// Call N's new outcome: an edited result (prefilled with what it answered) or a failure with a message.
async function askForkAnswer(
  call: { ok: boolean; value?: JsonValue; message?: string } | undefined,
): Promise<ForkAnswer | undefined> {
  const result = vscode.l10n.t('Edit Its Result…');
  const error = vscode.l10n.t('Make It Fail…');
  const how = await vscode.window.showQuickPick([result, error], {
    title: vscode.l10n.t('Run from call: its new outcome'),
  });
  if (how === result) {
    const value = await askJson({
      title: vscode.l10n.t('The result the call answers with'),
      prompt: vscode.l10n.t("Checked against the binding's output schema before the run starts"),
      value: JSON.stringify(call?.ok === true ? (call.value ?? null) : null),
    });
    return value === undefined ? undefined : { ok: true, value };
  }
  if (how !== error) return undefined;
  const message = await vscode.window.showInputBox({
    title: vscode.l10n.t('The message the call fails with'),
    value: call?.ok === false ? (call.message ?? '') : '',
    ignoreFocusOut: true,
    validateInput: (text) => (text.trim() === '' ? vscode.l10n.t('Type a message') : undefined),
  });
  return message === undefined ? undefined : { ok: false, message };
}

// The paused call of a cell as data (for scripts and tests): what it is, why it waits, and a refused answer's problem.
function pausedCall(pauses: CallPauses, arg: unknown): unknown {
  const target = pausedTarget(pauses, arg);
  if (target === undefined) return undefined;
  const { call, control, since, key } = target.waiting;
  return {
    ...call,
    key,
    cellIndex: target.cell.index,
    since,
    ...(control.problem === undefined ? {} : { problem: control.problem }),
  };
}

type DebugCommandId = (typeof COMMANDS)[
  | 'breakOnCalls'
  | 'continueCall'
  | 'stepCall'
  | 'answerCall'
  | 'throwCall'
  | 'editCallArguments'
  | 'denyCall'
  | 'decideCall'
  | 'pausedCall'
  | 'forkFromCall'];

export function debugCommandHandlers(deps: DebugCommandDeps): Record<DebugCommandId, (...args: unknown[]) => unknown> {
  const { pauses } = deps;
  const simple = (decision: (target: Waiting) => CallDecision) => (arg?: unknown) => {
    const target = pausedTarget(pauses, arg);
    return target === undefined ? nothingPausedFor(arg) : decide(pauses, target, decision(target));
  };
  return {
    [COMMANDS.breakOnCalls]: (arg, given) => breakOnCalls(deps, arg, given),
    [COMMANDS.continueCall]: simple(() => ({ kind: 'continue' })),
    [COMMANDS.stepCall]: simple(() => ({ kind: 'continue', step: true })),
    [COMMANDS.answerCall]: (arg, value) => answerCall(pauses, arg, value),
    [COMMANDS.throwCall]: (arg, message) => throwCall(pauses, arg, message),
    [COMMANDS.editCallArguments]: (arg, args) => editArguments(pauses, arg, args),
    [COMMANDS.denyCall]: simple(({ waiting }) => ({ kind: 'throw', message: deniedMessage(waiting.call) })),
    [COMMANDS.decideCall]: (arg) => decideCall(pauses, arg),
    [COMMANDS.pausedCall]: (arg) => pausedCall(pauses, arg),
    [COMMANDS.forkFromCall]: (arg, given) => forkFromCall(deps, arg, given),
  };
}

// A call that needs approval is also announced in a notification (a person may be looking elsewhere); a breakpoint
// reveals its cell. Either way the choices stay in the cell's status bar until one is made.
export function announcePause(cell: vscode.NotebookCell, waiting: WaitingCall): void {
  const { call } = waiting;
  const editor = vscode.window.visibleNotebookEditors.find((e) => e.notebook === cell.notebook);
  editor?.revealRange(
    new vscode.NotebookRange(cell.index, cell.index + 1),
    vscode.NotebookEditorRevealType.InCenterIfOutsideViewport,
  );
  if (call.reason !== 'approval') return;
  const approve = vscode.l10n.t('Approve');
  const edit = vscode.l10n.t('Edit Arguments…');
  const deny = vscode.l10n.t('Deny');
  void vscode.window
    .showWarningMessage(
      vscode.l10n.t('Cell {0}: {1} needs approval', cell.index + 1, callLabel(call)),
      approve,
      edit,
      deny,
    )
    .then((choice) => {
      const command =
        choice === approve
          ? COMMANDS.continueCall
          : choice === edit
            ? COMMANDS.editCallArguments
            : choice === deny
              ? COMMANDS.denyCall
              : undefined;
      if (command === undefined) return;
      // this notification's call only: clicked after the call was decided in the cell, it says so and decides nothing
      void vscode.commands
        .executeCommand<CommandOutcome | undefined>(command, waitArg({ cell, waiting }))
        .then((outcome) => {
          if (outcome !== undefined && !outcome.ok) void vscode.window.showInformationMessage(outcome.message);
        });
    });
}
