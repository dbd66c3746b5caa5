import { el } from './el.js';
import type { ViewContext } from './view-context.js';

// A button that copies `text()` and says so, visibly and to screen readers.
export function copyButton(ctx: ViewContext, label: string, text: () => string, what = 'JSON'): HTMLButtonElement {
  const button = el('button', { type: 'button', class: 'ptc-button ptc-copy', title: label, 'aria-label': label }, `Copy ${what}`);
  button.addEventListener(
    'click',
    (event) => {
      event.stopPropagation();
      void ctx.copy(text()).then((ok) => {
        button.textContent = ok ? 'Copied' : 'Copy failed';
        button.dataset.copied = ok ? 'true' : 'false';
        ctx.announce(ok ? `${label}: copied` : `${label}: the clipboard refused`);
        setTimeout(() => {
          button.textContent = `Copy ${what}`;
          delete button.dataset.copied;
        }, 1500);
      });
    },
    { signal: ctx.signal },
  );
  return button;
}
