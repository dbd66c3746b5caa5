import * as l10n from '@vscode/l10n';
import type { ResultPayload } from '../protocol/result-payload.js';
import { el } from '../dom/el.js';
import { section } from '../dom/section.js';
import type { ViewContext } from '../dom/view-context.js';
import { enforcementText, summarizeSandbox } from '../shared/sandbox-summary.js';
import { durationStory } from './status-line.js';

// The Run section: what the status line does not already say — the timing breakdown, the sandbox that was enforced
// (none is claimed for a run that never started a process) and the language.
export function footerSection(ctx: ViewContext, payload: ResultPayload): HTMLElement {
  const result = payload.result;
  const sandbox = summarizeSandbox(result.sandbox, l10n.t);
  const started = result.started !== false;
  return section({
    ctx,
    key: 'footer',
    title: l10n.t('Run'),
    meta: started ? l10n.t('sandbox {0}', enforcementText(sandbox.enforcement, l10n.t)) : l10n.t('no process started'),
    open: true,
    body: () => {
      let sandboxItem: HTMLElement;
      if (!started) {
        sandboxItem = el('dd', {}, l10n.t('none: the run ended before a process was started'));
      } else {
        sandboxItem = el(
          'dd',
          {},
          el(
            'span',
            { class: `ptc-enforcement ptc-enforcement-${sandbox.enforcement}` },
            enforcementText(sandbox.enforcement, l10n.t),
          ),
        );
        if (sandbox.mechanisms.length > 0) sandboxItem.append(l10n.t(' via {0}', sandbox.mechanisms.join(', ')));
        if (sandbox.missing.length > 0)
          sandboxItem.append(
            el('span', { class: 'ptc-sandbox-missing' }, l10n.t(' — not enforced: {0}', sandbox.missing.join('; '))),
          );
        // the runtime's own reasons, each with its fix (`ptc run --json` prints the same `sandbox.missing`)
        const reasons = result.sandbox.missing ?? [];
        if (reasons.length > 0)
          sandboxItem.append(
            el(
              'div',
              { class: 'ptc-sandbox-reasons' },
              l10n.t('What is missing, and how to fix it:'),
              el('ul', {}, ...reasons.map((reason) => el('li', {}, el('code', {}, reason)))),
            ),
          );
      }
      return el(
        'dl',
        { class: 'ptc-footer' },
        el('div', {}, el('dt', {}, l10n.t('Timing')), el('dd', {}, durationStory(payload).detail)),
        el('div', {}, el('dt', {}, l10n.t('Sandbox')), sandboxItem),
        el(
          'div',
          {},
          el('dt', {}, l10n.t('Language')),
          el('dd', {}, result.language === 'python' ? 'Python' : 'TypeScript'),
        ),
      );
    },
  }).element;
}
