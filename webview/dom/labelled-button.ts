import { el } from './el.js';
import type { ViewContext } from './view-context.js';

// A button whose face ("−", "Copy JSON") is not its name: the label is its tooltip and its accessible name alike, and
// its click listener ends with the view.
export function labelledButton(
  ctx: ViewContext,
  options: { class: string; label: string; face: string },
  onClick: (event: MouseEvent) => void,
): HTMLButtonElement {
  const button = el(
    'button',
    { type: 'button', class: options.class, title: options.label, 'aria-label': options.label },
    options.face,
  );
  button.addEventListener('click', onClick, { signal: ctx.signal });
  return button;
}
