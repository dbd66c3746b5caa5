import * as l10n from '@vscode/l10n';
import { labelledButton } from './labelled-button.js';
import type { ViewContext } from './view-context.js';

// A button that copies `text()` and says so, visibly and to screen readers.
export function copyButton(
  ctx: ViewContext,
  label: string,
  text: () => string,
  what: 'JSON' | 'text' = 'JSON',
): HTMLButtonElement {
  const face = what === 'text' ? l10n.t('Copy text') : l10n.t('Copy JSON');
  const button = labelledButton(ctx, { class: 'ptc-button ptc-copy', label, face }, (event) => {
    event.stopPropagation();
    void ctx.copy(text()).then((ok) => {
      button.textContent = ok ? l10n.t('Copied') : l10n.t('Copy failed');
      button.dataset.copied = ok ? 'true' : 'false';
      ctx.announce(ok ? l10n.t('{0}: copied', label) : l10n.t('{0}: the clipboard refused', label));
      setTimeout(() => {
        button.textContent = face;
        delete button.dataset.copied;
      }, 1500);
    });
  });
  return button;
}
