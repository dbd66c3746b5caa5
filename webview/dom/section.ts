import { el, type Child } from './el.js';
import type { ViewContext } from './view-context.js';

export interface SectionOptions {
  ctx: ViewContext;
  // stable hook for tests and e2e: data-section="<key>"
  key: string;
  title: string;
  meta?: Child;
  open?: boolean;
  tone?: 'error' | 'warning';
  actions?: Child[];
  // built on first expansion, so collapsed sections cost nothing
  body: () => Node;
}

export interface Section {
  element: HTMLElement;
  setOpen(open: boolean): void;
}

// A collapsible section: a heading whose button toggles a region (aria-expanded/aria-controls), body built lazily.
export function section(options: SectionOptions): Section {
  const { ctx } = options;
  const bodyId = ctx.id(`${options.key}-body`);
  const headId = ctx.id(`${options.key}-head`);
  const toggle = el(
    'button',
    { type: 'button', class: 'ptc-section-toggle', id: headId, 'aria-controls': bodyId, 'aria-expanded': 'false' },
    el('span', { class: 'ptc-twisty', 'aria-hidden': 'true' }),
    el('span', { class: 'ptc-section-title' }, options.title),
    options.meta === undefined ? null : el('span', { class: 'ptc-section-meta' }, options.meta),
  );
  const body = el('div', {
    class: 'ptc-section-body',
    id: bodyId,
    role: 'region',
    'aria-labelledby': headId,
    hidden: true,
  });
  const element = el(
    'section',
    {
      class: `ptc-section${options.tone === undefined ? '' : ` ptc-tone-${options.tone}`}`,
      'data-section': options.key,
    },
    el(
      'h3',
      { class: 'ptc-section-header' },
      toggle,
      el('span', { class: 'ptc-section-actions' }, ...(options.actions ?? [])),
    ),
    body,
  );
  let built = false;
  const setOpen = (open: boolean): void => {
    if (open && !built) {
      built = true;
      body.appendChild(options.body());
    }
    toggle.setAttribute('aria-expanded', String(open));
    body.hidden = !open;
    element.classList.toggle('ptc-collapsed', !open);
  };
  toggle.addEventListener('click', () => setOpen(toggle.getAttribute('aria-expanded') !== 'true'), {
    signal: ctx.signal,
  });
  setOpen(options.open ?? true);
  return { element, setOpen };
}
