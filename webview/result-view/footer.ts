import type { RunResult } from '../../runtime/protocol/run-result.js';
import { el } from '../dom/el.js';
import { section } from '../dom/section.js';
import type { ViewContext } from '../dom/view-context.js';
import { formatDuration } from '../shared/format.js';
import { summarizeSandbox } from '../shared/sandbox-summary.js';

const MODE_TEXT = { mock: 'mock handlers', live: 'live handlers', replay: 'replayed from a cassette' } as const;

// Footer: duration, sandbox enforcement with what is missing, and which handlers served the calls.
export function footerSection(ctx: ViewContext, result: RunResult): HTMLElement {
  const sandbox = summarizeSandbox(result.sandbox);
  const meta = `${formatDuration(result.durationMs)} · sandbox ${sandbox.enforcement}${result.mode === undefined ? '' : ` · ${result.mode}`}`;
  return section({
    ctx,
    key: 'footer',
    title: 'Run',
    meta,
    open: true,
    body: () => {
      const sandboxItem = el('dd', {}, el('span', { class: `ptc-enforcement ptc-enforcement-${sandbox.enforcement}` }, sandbox.enforcement));
      if (sandbox.mechanisms.length > 0) sandboxItem.append(` via ${sandbox.mechanisms.join(', ')}`);
      if (sandbox.missing.length > 0) sandboxItem.append(el('span', { class: 'ptc-sandbox-missing' }, ` — not enforced: ${sandbox.missing.join('; ')}`));
      return el(
        'dl',
        { class: 'ptc-footer' },
        el('div', {}, el('dt', {}, 'Duration'), el('dd', {}, formatDuration(result.durationMs))),
        el('div', {}, el('dt', {}, 'Sandbox'), sandboxItem),
        el('div', {}, el('dt', {}, 'Mode'), el('dd', {}, result.mode === undefined ? 'not reported' : `${result.mode} (${MODE_TEXT[result.mode]})`)),
        el('div', {}, el('dt', {}, 'Language'), el('dd', {}, result.language === 'python' ? 'Python' : 'TypeScript')),
      );
    },
  }).element;
}
