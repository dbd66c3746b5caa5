import * as l10n from '@vscode/l10n';
import type { ExpectationReport, FieldMismatch } from '../../runtime/protocol/expectation-report.js';
import { el, type Child } from '../dom/el.js';
import { section } from '../dom/section.js';
import type { ViewContext } from '../dom/view-context.js';
import { appendVisibleText } from '../dom/visible-text-dom.js';

// read at render time, after the page loaded its translations
const fieldTitles = (): Record<FieldMismatch['field'], string> => ({
  value: l10n.t('Return value'),
  logs: l10n.t('Printed output'),
  error: l10n.t('Failure'),
  calls: l10n.t('Binding calls'),
});

// Program data shown as text: control and bidi characters become visible markers, never act on the page.
function visible(tag: 'code' | 'span', className: string, text: string): HTMLElement {
  const node = el(tag, { class: className });
  appendVisibleText(node, text);
  return node;
}

function mismatchBlock(m: FieldMismatch): HTMLElement {
  return el(
    'div',
    { class: 'ptc-mismatch', 'data-field': m.field },
    el(
      'div',
      { class: 'ptc-mismatch-head' },
      el('strong', {}, fieldTitles()[m.field]),
      ' ',
      l10n.t('({0}) first differs at', m.match),
      ' ',
      visible('code', 'ptc-mismatch-path', m.path),
      ': ',
      visible('span', 'ptc-mismatch-reason', m.reason),
    ),
    el(
      'dl',
      { class: 'ptc-mismatch-sides' },
      el('dt', {}, l10n.t('expected')),
      el('dd', {}, visible('code', 'ptc-mismatch-expected', m.expected)),
      el('dt', {}, l10n.t('got')),
      el('dd', {}, visible('code', 'ptc-mismatch-actual', m.actual)),
    ),
  );
}

// The cell's expectation next to this run: a one-line ✓, or what was expected, what came and where it first differs
// (one block per differing field), with Accept as Expected (renderer only).
// A failed run that met its expectation (a test that the program must fail) says so in plain words, so its ✓ does not
// read as a contradiction of the failure card below it; the compared fields stay in the tooltip.
export function expectationSection(
  ctx: ViewContext,
  report: ExpectationReport | undefined,
  actions: Child[] = [],
  runFailed = false,
): HTMLElement | null {
  if (report === undefined) return null;
  const compared = report.checked.map((c) => `${c.field} ${c.match}`).join(', ');
  if (report.ok) {
    const detail =
      compared === ''
        ? l10n.t('Meets its expectation (every field ignored)')
        : l10n.t('Meets its expectation ({0})', compared);
    return el(
      'div',
      {
        class: 'ptc-expectation ptc-expectation-ok',
        'data-section': 'expectation',
        'data-ok': 'true',
        ...(runFailed ? { title: detail } : {}),
      },
      el('span', { class: 'ptc-status-icon', 'aria-hidden': 'true' }, '✓'),
      ' ',
      runFailed ? l10n.t('Failed as expected') : detail,
    );
  }
  const masked = report.masked?.flatMap((m) => m.paths.map((p) => `${m.field} ${p}`)) ?? [];
  const built = section({
    ctx,
    key: 'expectation',
    title: l10n.t('✗ Does not match the expectation'),
    meta: differingText(report.mismatches.length, report.checked.length),
    tone: 'error',
    open: true,
    actions,
    body: () =>
      el(
        'div',
        { class: 'ptc-expectation-body' },
        ...report.mismatches.map(mismatchBlock),
        masked.length === 0
          ? null
          : el('p', { class: 'ptc-expectation-masked' }, l10n.t('Masked (not compared): {0}', masked.join(', '))),
      ),
  });
  built.element.dataset.ok = 'false';
  return built.element;
}

// "1 of 1 compared field differs" / "1 of 3 compared fields differs" / "2 of 3 compared fields differ"
function differingText(differing: number, compared: number): string {
  if (compared === 1) return l10n.t('{0} of 1 compared field differs', differing);
  return differing === 1
    ? l10n.t('1 of {0} compared fields differs', compared)
    : l10n.t('{0} of {1} compared fields differ', differing, compared);
}
