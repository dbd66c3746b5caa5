import * as l10n from '@vscode/l10n';
import type { RunResult } from '../../runtime/protocol/run-result.js';
import { el } from '../dom/el.js';
import { copyButton } from '../dom/copy-button.js';
import { appendVisibleText } from '../dom/visible-text-dom.js';
import type { ViewContext } from '../dom/view-context.js';
import { formatBytes, formatCount } from '../shared/format.js';
import { modelView } from '../shared/model-view.js';

// Beyond this the page shows the head of the text (the size and the copy stay exact).
const MAX_SHOWN_CHARS = 2_000_000;

// "What the model sees": the exact run_code text for this run, its UTF-8 size, and a copy button.
export function modelViewPanel(ctx: ViewContext, result: RunResult): HTMLElement {
  const view = modelView(result);
  const text = el('pre', {
    class: 'ptc-model-text',
    tabindex: 0,
    'aria-label': l10n.t('Text returned to the model'),
    dir: 'auto',
  });
  appendVisibleText(text, view.text.length > MAX_SHOWN_CHARS ? view.text.slice(0, MAX_SHOWN_CHARS) : view.text);
  const size = el(
    'span',
    { class: 'ptc-model-size', 'data-bytes': view.bytes },
    l10n.t('{0} bytes', formatCount(view.bytes)),
    view.bytes >= 1024 ? l10n.t(' ({0})', formatBytes(view.bytes, l10n.t)) : '',
    // a rough guide only; real tokenizers differ
    ' · ',
    l10n.t('≈ {0} tokens', formatCount(Math.ceil(view.bytes / 4))),
  );
  return el(
    'div',
    { class: 'ptc-model-view', 'data-outcome': view.outcome },
    el(
      'p',
      { class: 'ptc-model-head' },
      view.outcome === 'success'
        ? l10n.t(
            'The exact text the run_code tool returns to the model for this run: printed output, then the return value.',
          )
        : l10n.t(
            'The exact text the run_code tool returns to the model for this failed run: the error, then the captured output.',
          ),
      ' ',
      size,
      ' ',
      copyButton(ctx, l10n.t('Copy what the model sees'), () => view.text, 'text'),
    ),
    text,
    view.text.length > MAX_SHOWN_CHARS
      ? el(
          'p',
          { class: 'ptc-note' },
          l10n.t('Showing the first {0} characters; Copy takes all of it.', formatCount(MAX_SHOWN_CHARS)),
        )
      : null,
  );
}
