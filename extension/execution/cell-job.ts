import {
  callCount,
  checkExpectation,
  type Expectation,
  type ExpectationReport,
  LanguageSchema,
  cellRunRequest,
  type CallEvent,
  type CellMetadata,
  type Language,
  type LogEntry,
  type NotebookMetadata,
  type NotebookMode,
  type PlanOverride,
  type RunLimits,
  type RunPlan,
  type RunResult,
  type SessionOutcome,
  type SessionRunRequest,
} from '../../runtime/index.js';
import type { ProblemAction } from '../../webview/protocol/index.js';
import type { Translate } from '../l10n.js';
import type { Logger } from '../log/logger.js';
import { CallProgress, type CallProgressSnapshot } from './call-progress.js';
import { LogStream } from './log-stream.js';
import { trustBlock } from './trust.js';
import { errorMessage } from '../../runtime/index.js';

export interface CancellationLike {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => void): { dispose(): void };
}

// What a cell job needs from a NotebookCellExecution; the VS Code adapter implements it.
export interface CellExecutionPort {
  readonly token: CancellationLike;
  setExecutionOrder(order: number | undefined): void;
  start(): void;
  clearOutput(): Promise<void>;
  appendLog(text: string, stream: LogEntry['stream']): Promise<void>;
  showResult(
    result: RunResult,
    context: {
      program: string;
      timeoutMs: number | undefined;
      cassette: string | undefined;
      cellMs: number;
      expectation?: ExpectationReport;
    },
  ): Promise<void>;
  // actions: what fixes it, offered as buttons under the message
  showProblem(problem: { message: string; actions?: ProblemAction[]; persist: boolean }): Promise<void>;
  end(success: boolean | undefined): void;
}

export interface CellJobInput {
  // the cell's languageId; anything but typescript/python is refused with a message
  languageId: string;
  program: string;
  cellIndex: number;
  cellLabel: string;
  cellMetadata: CellMetadata | undefined;
  notebookMetadata: NotebookMetadata | undefined;
  notebookDir: string;
  // the notebook's file: its cassettes are `.ptc/cassettes/<its name>/`
  notebookFile: string;
  cwd: string;
  bindingsPath: string | undefined;
  defaultMode: NotebookMode;
  limits: RunLimits;
  override?: PlanOverride;
  trusted: boolean;
  // the cell's `metadata.expect`: a run that does not meet it ends ✗ and shows where it first differs
  expectation?: Expectation;
  // call breakpoints and who decides paused calls (breakpoints, `ask` approvals)
  pauses?: NonNullable<SessionRunRequest['pauses']>;
}

// interpreter paths the user allowed for this run (undefined: the runtime's own default lookup)
export interface RuntimePaths {
  nodePath?: string;
  pythonPath?: string;
}

export type ApprovalOutcome =
  { ok: true; paths: RuntimePaths } | { ok: false; message: string; actions?: ProblemAction[] };

export interface CellJobDeps {
  // runs the cell in its notebook's session
  run: (request: SessionRunRequest, paths: RuntimePaths) => Promise<SessionOutcome>;
  approveRuntimePaths: (language: Language) => Promise<ApprovalOutcome>;
  nextExecutionOrder: () => number;
  log: Logger;
  t: Translate;
  // live binding-call counts while the program runs (throttled); undefined once the run is over
  onProgress?: (snapshot: CallProgressSnapshot | undefined) => void;
}

// Calls logged one by one per run (debug level); the rest are counted in one line, so a runaway loop's 10⁵ calls
// never flood the log channel.
const LOGGED_CALLS = 50;

export type CellJobOutcome =
  'cancelled' | 'empty' | 'refused' | 'setup-failed' | 'succeeded' | 'failed' | 'aborted' | 'internal-error';

function planLabel(plan: RunPlan): string {
  return plan.mode === 'record' ? `record (${plan.handlers})` : plan.mode;
}

function describeCall(event: CallEvent): string {
  return `call ${event.global}.${event.name} ${event.ok ? 'ok' : 'failed'} in ${event.durationMs.toFixed(1)} ms (args ${event.argsChars} chars)${event.message === undefined ? '' : `: ${event.message}`}`;
}

// The pauses with each paused call also said in the cell's live output (the status bar holds the choices).
function shownPauses(
  pauses: NonNullable<SessionRunRequest['pauses']>,
  stream: LogStream,
  t: Translate,
): NonNullable<SessionRunRequest['pauses']> {
  const { onPause } = pauses;
  if (onPause === undefined) return pauses;
  return {
    ...pauses,
    onPause: (call, control) => {
      const label = `${call.global}.${call.name}(${JSON.stringify(call.args)})`;
      stream.push({
        stream: 'stderr',
        text:
          call.reason === 'approval'
            ? t(
                '⏸ call {0} needs approval: {1}. Approve, edit its arguments or deny it in the cell status bar.',
                call.id,
                label,
              )
            : t('⏸ paused at call {0}: {1}. Continue, answer, throw or step in the cell status bar.', call.id, label),
      });
      if (control.problem !== undefined) stream.push({ stream: 'stderr', text: control.problem });
      return onPause(call, control);
    },
  };
}

// One cell's execution from queue to ✓/✗: every path ends the execution exactly once, and a cancelled cell
// ends with neither mark.
export async function runCellJob(
  port: CellExecutionPort,
  input: CellJobInput,
  deps: CellJobDeps,
): Promise<CellJobOutcome> {
  const { t, log } = deps;
  let ended = false;
  const end = (success: boolean | undefined): void => {
    if (ended) return;
    ended = true;
    port.end(success);
  };
  if (port.token.isCancellationRequested) {
    end(undefined);
    return 'cancelled';
  }
  if (input.program.trim() === '') {
    port.setExecutionOrder(undefined);
    port.start();
    await port.clearOutput();
    end(undefined);
    return 'empty';
  }
  const abort = new AbortController();
  const subscription = port.token.onCancellationRequested(() => abort.abort(new Error('cancelled from the notebook')));
  const stream = new LogStream(
    {
      write: (text, s) => port.appendLog(text, s),
      pausedNotice: t('… live output paused here; the full output appears when the cell finishes'),
    },
    (error) => log.warn('could not stream a log line to the cell', error),
  );
  const cellStarted = performance.now();
  const progress = new CallProgress({ onChange: (snapshot) => deps.onProgress?.(snapshot) });
  let logged = 0;
  try {
    port.setExecutionOrder(deps.nextExecutionOrder());
    port.start();
    await port.clearOutput();
    const blocked = trustBlock(input.trusted, t);
    if (blocked !== undefined) {
      log.info(`${input.cellLabel}: not run (workspace not trusted)`);
      await port.showProblem({ ...blocked, persist: false });
      end(false);
      return 'refused';
    }
    const language = LanguageSchema.safeParse(input.languageId);
    if (!language.success) {
      const message = t(
        'PTC Playground runs TypeScript and Python cells; this cell is "{0}". Change the cell language to run it.',
        input.languageId,
      );
      await port.showProblem({ message, persist: false });
      end(false);
      return 'refused';
    }
    const approval = await deps.approveRuntimePaths(language.data);
    if (!approval.ok) {
      log.warn(`${input.cellLabel}: not run: ${approval.message}`);
      await port.showProblem({
        message: approval.message,
        ...(approval.actions === undefined ? {} : { actions: approval.actions }),
        persist: false,
      });
      end(false);
      return 'refused';
    }
    if (abort.signal.aborted) {
      end(undefined);
      return 'cancelled';
    }
    const request = cellRunRequest({
      language: language.data,
      program: input.program,
      cellIndex: input.cellIndex,
      cell: input.cellMetadata,
      notebook: input.notebookMetadata,
      notebookDir: input.notebookDir,
      notebookFile: input.notebookFile,
      cwd: input.cwd,
      defaultMode: input.defaultMode,
      limits: input.limits,
      ...(input.override === undefined ? {} : { override: input.override }),
      signal: abort.signal,
      onLog: (entry) => stream.push(entry),
      onCall: (event) => {
        progress.settled(event);
        if (++logged <= LOGGED_CALLS) log.debug(`${input.cellLabel}: ${describeCall(event)}`);
      },
      onCallStart: (call) => progress.started(call),
      // schema drift, unused recorded calls, handler warnings: for the developer, never the program's output
      onWarning: (message) => log.warn(`${input.cellLabel}: ${message}`),
      ...(input.pauses === undefined ? {} : { pauses: shownPauses(input.pauses, stream, t) }),
    });
    const { plan, limits } = request;
    log.info(
      `${input.cellLabel}: run ${language.data} (${planLabel(plan)})${input.bindingsPath === undefined ? '' : ` with bindings ${input.bindingsPath}`}`,
    );
    const started = performance.now();
    const outcome = await deps.run(request, approval.paths);
    progress.stop();
    deps.onProgress?.(undefined);
    if (logged > LOGGED_CALLS)
      log.debug(`${input.cellLabel}: ${logged - LOGGED_CALLS} more call(s) not logged one by one`);
    await stream.close();
    if (outcome.kind === 'setup-failed') {
      const message = t('The cell could not run ({0}): {1}', outcome.stage, outcome.message);
      log.warn(`${input.cellLabel}: ${outcome.stage} problem: ${outcome.message}`);
      // a broken bindings module or cassette is worth keeping in the saved notebook; a bindings problem offers the
      // picker
      const actions: ProblemAction[] =
        outcome.stage === 'bindings' ? ['set-notebook-bindings', 'show-log'] : ['show-log'];
      await port.showProblem({ message, persist: true, actions });
      end(abort.signal.aborted ? undefined : false);
      return 'setup-failed';
    }
    const { result } = outcome;
    const cassette = outcome.cassette;
    if (cassette !== undefined && !cassette.ok)
      log.error(`${input.cellLabel}: cassette not written: ${cassette.message}`);
    else if (cassette !== undefined)
      log.info(`${input.cellLabel}: recorded ${cassette.calls} call(s) to ${cassette.path}`);
    log.info(
      `${input.cellLabel}: ${result.error === undefined ? 'succeeded' : `failed (${result.error.kind})`} in ${result.durationMs.toFixed(0)} ms, ` +
        `${callCount(result)} call(s), host ${(performance.now() - started).toFixed(0)} ms`,
    );
    if (result.error !== undefined) log.debug(`${input.cellLabel}: ${result.error.kind}: ${result.error.message}`);
    const report = input.expectation === undefined ? undefined : checkExpectation(input.expectation, result);
    if (report !== undefined)
      log.info(
        `${input.cellLabel}: ${report.ok ? 'meets its expectation' : `does not meet its expectation (${report.mismatches.map((m) => `${m.field} at ${m.path}`).join(', ')})`}`,
      );
    const shown = port.showResult(result, {
      program: input.program,
      timeoutMs: limits.timeoutMs,
      cassette: cassette === undefined ? undefined : cassette.ok ? cassette.path : undefined,
      cellMs: performance.now() - cellStarted,
      ...(report === undefined ? {} : { expectation: report }),
    });
    const stopped = abort.signal.aborted && result.error?.kind === 'abort';
    // Stop answers at once: the result's output is already queued on the execution ahead of its end, so VS Code
    // applies both in order without a round trip in between
    if (stopped) end(undefined);
    await shown;
    if (cassette !== undefined && !cassette.ok) {
      await port.showProblem({ message: t('The cassette was not written: {0}', cassette.message), persist: false });
    }
    // a run that differs from its expectation is ✗; one that fails as expected stays ✗ too (its Test Explorer entry
    // passes)
    const met = result.error === undefined && report?.ok !== false;
    end(stopped ? undefined : met && (cassette === undefined || cassette.ok));
    return stopped ? 'aborted' : result.error === undefined ? 'succeeded' : 'failed';
  } catch (error) {
    log.error(`${input.cellLabel}: internal error`, error);
    await stream.close();
    try {
      await port.showProblem({
        message: t('Internal error in PTC Playground: {0}', errorMessage(error)),
        persist: false,
      });
    } catch (writeError) {
      log.error('could not write the internal error to the cell', writeError);
    }
    end(false);
    return 'internal-error';
  } finally {
    progress.stop();
    deps.onProgress?.(undefined);
    subscription.dispose();
    end(false);
  }
}
