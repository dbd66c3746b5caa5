import * as l10n from '@vscode/l10n';
import { el } from '../dom/el.js';
import { appendVisibleText } from '../dom/visible-text-dom.js';
import type { ViewContext } from '../dom/view-context.js';
import type { InspectorRun } from '../protocol/inspector-messages.js';
import { timelineSection } from '../result-view/timeline.js';
import { diffLines, firstDifference } from '../shared/line-diff.js';
import { diffView, linesSection } from './diff-view.js';

// "Then vs now": what an imported program did in its transcript next to a run of its cell here — the verdict the
// host computed, the output as the model saw it side by side, then the full diff of calls, output and outcome.
export function thenNowView(ctx: ViewContext, then: InspectorRun, now: InspectorRun | undefined): HTMLElement {
  const info = then.transcript;
  const head = el(
    'p',
    { class: 'ptc-cassette-note ptc-then-origin' },
    l10n.t(
      'Then: {0}. Now: {1}.',
      info === undefined ? then.label : l10n.t('{0} ({1})', info.origin, info.format),
      now === undefined ? l10n.t('no run of this cell yet') : now.label,
    ),
  );
  const marks =
    info === undefined || info.marks.length === 0
      ? null
      : el(
          'div',
          { class: 'ptc-banner ptc-then-marks', role: 'note' },
          el('strong', {}, l10n.t('Cannot be reproduced as recorded: ')),
          // the import's own notes, saved in the notebook's metadata: shown as recorded
          ...info.marks.map((m) => el('div', { class: 'ptc-then-mark' }, `• ${m}`)),
        );
  if (now === undefined) {
    return el(
      'div',
      { class: 'ptc-then-now', 'data-verdict': 'pending' },
      head,
      marks,
      el(
        'p',
        { class: 'ptc-empty' },
        l10n.t('Run the cell (an imported cell replays its cassette) to compare it with what the transcript recorded.'),
      ),
      timelineSection(ctx, then.payload.result),
    );
  }
  const verdict = now.thenVsNow;
  const container = el(
    'div',
    {
      class: 'ptc-then-now',
      'data-verdict': verdict === undefined ? 'unknown' : verdict.agrees ? 'agrees' : 'differs',
    },
    head,
    marks,
  );
  if (verdict === undefined) {
    container.append(
      el(
        'p',
        { class: 'ptc-empty' },
        l10n.t('This run was not compared with the transcript (it ran before the cell was known as imported).'),
      ),
    );
  } else {
    const summary = el('div', {
      class: verdict.agrees ? 'ptc-diff-summary ptc-diff-same' : 'ptc-diff-summary',
      role: 'status',
    });
    if (verdict.agrees)
      summary.append(l10n.t('Now matches then: the same calls and the same output as the transcript recorded.'));
    else {
      summary.append(el('strong', {}, l10n.t('Now differs from then:')));
      const list = el('ul', { class: 'ptc-then-differences' });
      for (const d of verdict.differences) {
        const item = el('li', {});
        appendVisibleText(item, d);
        list.append(item);
      }
      summary.append(list);
    }
    if (verdict.skipped !== undefined)
      summary.append(el('p', { class: 'ptc-note' }, l10n.t('Not compared: {0}.', verdict.skipped)));
    const rows = diffLines(splitText(verdict.thenText), splitText(verdict.nowText));
    container.append(
      summary,
      linesSection(
        ctx,
        'then-now-text',
        l10n.t('What the model received ({0}): then | now', verdict.label),
        rows,
        firstDifference(rows),
      ),
    );
  }
  // a vendor transcript records output as one text (compared above); only a PTC trace keeps logs and value apart
  container.append(diffView(ctx, then, now, info?.compare === 'result' ? {} : { sections: ['calls', 'outcome'] }));
  return container;
}

function splitText(text: string): string[] {
  return text === '' ? [] : text.split('\n');
}
