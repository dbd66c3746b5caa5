import * as l10n from '@vscode/l10n';
import { el } from '../dom/el.js';
import { appendVisibleText } from '../dom/visible-text-dom.js';

const MAX_RAW = 4_000;

// Shown instead of a result when the output item is unreadable: what is wrong, and the raw text (as text).
export function invalidOutputView(problem: string, raw: string): HTMLElement {
  const rawBox = el('pre', {});
  appendVisibleText(rawBox, raw.length > MAX_RAW ? `${raw.slice(0, MAX_RAW)}…` : raw);
  const problemBox = el('pre', {});
  appendVisibleText(problemBox, problem);
  return el(
    'div',
    { class: 'ptc-invalid', 'data-section': 'invalid' },
    el(
      'p',
      {},
      el('strong', {}, l10n.t('This PTC result could not be displayed.')),
      ' ',
      l10n.t('Re-run the cell to regenerate it.'),
    ),
    problemBox,
    raw === '' ? null : el('details', {}, el('summary', {}, l10n.t('Raw output')), rawBox),
  );
}
