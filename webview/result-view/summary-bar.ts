import type { RunResult } from '../../runtime/protocol/run-result.js';
import { el, type Child } from '../dom/el.js';
import { callTotal } from '../shared/call-flags.js';
import { FAILURE_TITLES } from '../shared/failure-kinds.js';
import { formatDuration, plural } from '../shared/format.js';

// One line on top: did it work, how long, how many calls; plus host actions (renderer) or nothing (inspector).
export function summaryBar(result: RunResult, actions: Child[]): HTMLElement {
  const error = result.error;
  const status =
    error === undefined
      ? el('span', { class: 'ptc-status ptc-status-ok' }, el('span', { class: 'ptc-status-icon', 'aria-hidden': 'true' }, '✓'), 'Succeeded')
      : el(
          'span',
          { class: 'ptc-status ptc-status-failed' },
          el('span', { class: 'ptc-status-icon', 'aria-hidden': 'true' }, '✗'),
          `Failed: ${FAILURE_TITLES[error.kind]}`,
        );
  const facts = [formatDuration(result.durationMs), plural(callTotal(result), 'call', 'calls')];
  if (result.mode !== undefined) facts.push(result.mode);
  return el(
    'div',
    { class: 'ptc-summary', 'data-section': 'summary' },
    status,
    el('span', { class: 'ptc-summary-facts' }, facts.join(' · ')),
    el('span', { class: 'ptc-summary-actions' }, ...actions),
  );
}
