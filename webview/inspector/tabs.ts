import * as l10n from '@vscode/l10n';
import { el } from '../dom/el.js';
import type { InspectorTab } from '../protocol/inspector-state.js';

const TAB_ORDER: readonly InspectorTab[] = ['run', 'model', 'diff', 'then'];

// read at render time, after the page loaded its translations
const titles = (): Record<InspectorTab, string> => ({
  run: l10n.t('Run'),
  model: l10n.t('What the model sees'),
  diff: l10n.t('Diff'),
  then: l10n.t('Then vs now'),
});

export interface TabsOptions {
  selected: InspectorTab;
  // the tabs to show (all by default); "then" only makes sense once a transcript run is known
  tabs?: readonly InspectorTab[];
  panelId: string;
  signal: AbortSignal;
  onSelect(tab: InspectorTab): void;
}

// An ARIA tablist: one tab stop, arrow keys move between tabs, activation follows focus.
export function tabList(options: TabsOptions): HTMLElement {
  const list = el('div', { role: 'tablist', class: 'ptc-tabs', 'aria-label': l10n.t('Inspector views') });
  const tabs = (options.tabs ?? TAB_ORDER).map((tab) => {
    const selected = tab === options.selected;
    const button = el(
      'button',
      {
        type: 'button',
        role: 'tab',
        class: 'ptc-tab',
        id: `ptc-tab-${tab}`,
        'aria-selected': String(selected),
        'aria-controls': options.panelId,
        tabindex: selected ? 0 : -1,
        'data-tab': tab,
      },
      titles()[tab],
    );
    button.addEventListener('click', () => options.onSelect(tab), { signal: options.signal });
    list.append(button);
    return button;
  });
  list.addEventListener(
    'keydown',
    (event) => {
      const at = tabs.findIndex((t) => t === event.target);
      if (at === -1) return;
      let next: number;
      if (event.key === 'ArrowRight') next = (at + 1) % tabs.length;
      else if (event.key === 'ArrowLeft') next = (at - 1 + tabs.length) % tabs.length;
      else if (event.key === 'Home') next = 0;
      else if (event.key === 'End') next = tabs.length - 1;
      else return;
      event.preventDefault();
      const tab = tabs[next]?.dataset.tab as InspectorTab | undefined;
      if (tab !== undefined) options.onSelect(tab);
    },
    { signal: options.signal },
  );
  return list;
}

export function tabTitle(tab: InspectorTab): string {
  return titles()[tab];
}
