import * as l10n from '@vscode/l10n';
import type { RunResult } from '../../runtime/protocol/run-result.js';
import type { ResultPayload } from '../protocol/result-payload.js';
import { el, type Child } from '../dom/el.js';
import { callTotal, failedCallCount } from '../shared/call-flags.js';
import { failureTitle } from '../shared/failure-kinds.js';
import { formatCount, formatDuration } from '../shared/format.js';
import { callsText } from './timeline.js';

export type Outcome = 'success' | 'failure' | 'cancelled';

// Cancelled is neither success nor failure: the person stopped it.
export function outcomeOf(result: RunResult): Outcome {
  if (result.error === undefined) return 'success';
  return result.error.kind === 'abort' ? 'cancelled' : 'failure';
}

// Cell time beyond the program's own worth mentioning (queue, bindings host, process start-up).
const OVERHEAD_WORTH_SAYING_MS = 50;

export interface DurationStory {
  // what the status line says
  text: string;
  // the breakdown, for the tooltip and the Run section
  detail: string;
}

// One duration story: the program's own time first; the cell's whole time (what VS Code's cell status shows) only
// when it differs, named as such.
export function durationStory(payload: Pick<ResultPayload, 'result' | 'cellMs'>): DurationStory {
  const { result, cellMs } = payload;
  const startup = result.startupMs ?? 0;
  const program = Math.max(0, result.durationMs - startup);
  const parts = [l10n.t('the program ran {0}', formatDuration(program, l10n.t))];
  if (startup > 0) parts.push(l10n.t('after {0} of process start-up', formatDuration(startup, l10n.t)));
  let text = formatDuration(program, l10n.t);
  if (cellMs !== undefined && cellMs - program > OVERHEAD_WORTH_SAYING_MS) {
    text = l10n.t('{0} (cell {1})', text, formatDuration(cellMs, l10n.t));
    parts.push(
      l10n.t(
        'the cell took {0} in all, counting its queue, the bindings and process start-up',
        formatDuration(cellMs, l10n.t),
      ),
    );
  }
  return { text, detail: l10n.t('{0}.', parts.join(', ')) };
}

function statusWord(result: RunResult): HTMLElement {
  const error = result.error;
  const outcome = outcomeOf(result);
  const [icon, word] =
    outcome === 'success'
      ? ['✓', l10n.t('Succeeded')]
      : outcome === 'cancelled'
        ? ['■', l10n.t('Cancelled')]
        : ['✗', failureTitle(error?.kind ?? 'exception', l10n.t)];
  return el(
    'span',
    { class: `ptc-status ptc-status-${outcome}` },
    el('span', { class: 'ptc-status-icon', 'aria-hidden': 'true' }, icon),
    word,
  );
}

// The facts of a run in one line, each said once: duration, calls, mode; "not started" for a run without a process.
export function runFacts(payload: Pick<ResultPayload, 'result' | 'cellMs'>): HTMLElement {
  const { result } = payload;
  const story = durationStory(payload);
  const facts: Child[] = [el('span', { class: 'ptc-fact', 'data-fact': 'duration', title: story.detail }, story.text)];
  const calls = callTotal(result);
  if (calls > 0) {
    const failed =
      result.callSummary === undefined ? result.calls.filter((c) => !c.ok).length : failedCallCount(result);
    facts.push(
      el(
        'span',
        { class: 'ptc-fact', 'data-fact': 'calls' },
        failed > 0 ? l10n.t('{0} ({1} failed)', callsText(calls), formatCount(failed)) : callsText(calls),
      ),
    );
  }
  if (result.mode !== undefined) facts.push(el('span', { class: 'ptc-fact', 'data-fact': 'mode' }, result.mode));
  if (result.started === false)
    facts.push(
      el(
        'span',
        { class: 'ptc-fact', 'data-fact': 'started', title: l10n.t('No process was started for this run.') },
        l10n.t('not started'),
      ),
    );
  const line = el('span', { class: 'ptc-summary-facts' });
  facts.forEach((fact, i) => {
    if (i > 0) line.append(el('span', { class: 'ptc-sep', 'aria-hidden': 'true' }, ' · '));
    if (fact !== null && fact !== undefined && fact !== false) line.append(fact);
  });
  return line;
}

// The status line: outcome, facts, the view toggle and host actions (renderer) or nothing (inspector).
export function statusLine(payload: ResultPayload, actions: Child[]): HTMLElement {
  return el(
    'div',
    { class: 'ptc-summary', 'data-section': 'summary' },
    statusWord(payload.result),
    runFacts(payload),
    el('span', { class: 'ptc-summary-actions' }, ...actions),
  );
}
