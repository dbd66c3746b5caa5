import * as l10n from '@vscode/l10n';
import type { JsonValue } from '../../runtime/protocol/json-value.js';
import { formatCount } from '../shared/format.js';
import { jsonText } from '../shared/json-text.js';
import { el } from './el.js';
import { badgeText, keyText, kindOf, previewText } from './json-summary.js';
import { appendVisibleText } from './visible-text-dom.js';
import type { ViewContext } from './view-context.js';

export interface JsonTreeOptions {
  ctx: ViewContext;
  label: string;
  // levels expanded initially (1 = the root's children are visible)
  expandDepth?: number;
}

// A node is a value (with an optional key) or a range of a big array/object's entries.
type NodeInfo =
  | { type: 'value'; value: JsonValue; key: string | undefined; depth: number }
  | { type: 'range'; entries: Entry[]; from: number; to: number; depth: number; isArray: boolean };
type Entry = [key: string | undefined, value: JsonValue];

// Children are paged: at most this many rows per level, deeper ranges for more (50 000 → 5 × 10 000 → 100 × 100).
const PAGE = 100;
// Strings longer than this (or with newlines) expand to show their full text.
const LONG_STRING = 120;
const MAX_STRING_VIEW = 200_000;

// An ARIA tree with lazy children, roving focus and copy-as-JSON for any node (Ctrl/Cmd+C or the row button).
export function jsonTree(value: JsonValue, options: JsonTreeOptions): HTMLElement {
  const { ctx } = options;
  const infos = new WeakMap<Element, NodeInfo>();
  const tree = el('ul', { class: 'ptc-tree', role: 'tree', 'aria-label': options.label });
  const root = item(infos, { type: 'value', value, key: undefined, depth: 1 });
  root.tabIndex = 0;
  tree.appendChild(root);
  expandTo(root, options.expandDepth ?? 1, infos);

  tree.addEventListener(
    'click',
    (event) => {
      const target = event.target as Element;
      const copy = target.closest('.ptc-row-copy');
      const li = target.closest('[role="treeitem"]');
      if (li === null || !tree.contains(li)) return;
      if (copy !== null) {
        event.stopPropagation();
        copyNode(li, infos, ctx);
        return;
      }
      if (target.closest('.ptc-row') === null || target.closest('.ptc-string-full') !== null) return;
      focusItem(tree, li as HTMLElement);
      toggle(li as HTMLElement, infos);
    },
    { signal: ctx.signal },
  );

  tree.addEventListener(
    'keydown',
    (event) => {
      const li = (event.target as Element).closest('[role="treeitem"]') as HTMLElement | null;
      if (li === null) return;
      const expanded = li.getAttribute('aria-expanded');
      let next: HTMLElement | null = null;
      switch (event.key) {
        case 'ArrowDown':
          next = nextVisible(li);
          break;
        case 'ArrowUp':
          next = previousVisible(li);
          break;
        case 'Home':
          next = tree.querySelector('[role="treeitem"]');
          break;
        case 'End':
          next = lastVisible(tree.lastElementChild as HTMLElement);
          break;
        case 'ArrowRight':
          if (expanded === 'false') toggle(li, infos);
          else if (expanded === 'true') next = firstChild(li);
          break;
        case 'ArrowLeft':
          if (expanded === 'true') toggle(li, infos);
          else next = parentItem(li);
          break;
        case 'Enter':
        case ' ':
          if (expanded !== null) toggle(li, infos);
          break;
        case 'c':
        case 'C':
          if (!(event.ctrlKey || event.metaKey)) return;
          copyNode(li, infos, ctx);
          break;
        default:
          return;
      }
      event.preventDefault();
      event.stopPropagation();
      if (next !== null) focusItem(tree, next);
    },
    { signal: ctx.signal },
  );
  return tree;
}

// The JSON text a node copies: its value, or the slice a range covers.
export function nodeJson(info: NodeInfo): string {
  if (info.type === 'value') return jsonText(info.value, { indent: 2 });
  const slice = info.entries.slice(info.from, info.to);
  if (info.isArray)
    return jsonText(
      slice.map(([, v]) => v),
      { indent: 2 },
    );
  return jsonText(Object.fromEntries(slice as [string, JsonValue][]), { indent: 2 });
}

function copyNode(li: Element, infos: WeakMap<Element, NodeInfo>, ctx: ViewContext): void {
  const info = infos.get(li);
  if (info === undefined) return;
  void ctx
    .copy(nodeJson(info))
    .then((ok) => ctx.announce(ok ? l10n.t('Copied as JSON') : l10n.t('The clipboard refused the copy')));
  li.classList.add('ptc-flash');
  setTimeout(() => li.classList.remove('ptc-flash'), 600);
}

function item(infos: WeakMap<Element, NodeInfo>, info: NodeInfo): HTMLElement {
  const li = el('li', { role: 'treeitem', tabindex: -1, 'aria-level': info.depth });
  infos.set(li, info);
  const row = el('div', { class: 'ptc-row' }, el('span', { class: 'ptc-twisty', 'aria-hidden': 'true' }));
  li.appendChild(row);
  if (info.type === 'range') {
    row.append(el('span', { class: 'ptc-range' }, `[${formatCount(info.from)} … ${formatCount(info.to - 1)}]`));
    li.setAttribute('aria-expanded', 'false');
  } else {
    const { value, key } = info;
    if (key !== undefined) row.append(el('span', { class: 'ptc-key' }, key), el('span', { class: 'ptc-punct' }, ': '));
    const kind = kindOf(value);
    const shown = el('span', { class: `ptc-val ptc-val-${kind}` });
    appendVisibleText(shown, previewText(value));
    row.append(shown, el('span', { class: `ptc-badge ptc-badge-${kind}` }, badgeText(value)));
    if (isExpandable(value)) li.setAttribute('aria-expanded', 'false');
  }
  row.append(
    el(
      'button',
      { type: 'button', class: 'ptc-row-copy', tabindex: -1, title: l10n.t('Copy as JSON'), 'aria-hidden': 'true' },
      l10n.t('copy'),
    ),
  );
  return li;
}

function isExpandable(value: JsonValue): boolean {
  if (typeof value === 'string') return value.length > LONG_STRING || value.includes('\n');
  if (Array.isArray(value)) return value.length > 0;
  return value !== null && typeof value === 'object' && Object.keys(value).length > 0;
}

function toggle(li: HTMLElement, infos: WeakMap<Element, NodeInfo>): void {
  const state = li.getAttribute('aria-expanded');
  if (state === null) return;
  if (state === 'true') {
    li.setAttribute('aria-expanded', 'false');
    (li.querySelector(':scope > [role="group"], :scope > .ptc-string-full') as HTMLElement | null)?.setAttribute(
      'hidden',
      '',
    );
    return;
  }
  li.setAttribute('aria-expanded', 'true');
  const existing = li.querySelector(':scope > [role="group"], :scope > .ptc-string-full');
  if (existing !== null) {
    existing.removeAttribute('hidden');
    return;
  }
  const info = infos.get(li);
  if (info === undefined) return;
  if (info.type === 'value' && typeof info.value === 'string') {
    const full = el('pre', { class: 'ptc-string-full' });
    appendVisibleText(
      full,
      info.value.length > MAX_STRING_VIEW ? `${info.value.slice(0, MAX_STRING_VIEW)}…` : info.value,
    );
    if (info.value.length > MAX_STRING_VIEW)
      full.append(
        el(
          'span',
          { class: 'ptc-note' },
          l10n.t(' (first {0} characters; copy for all)', formatCount(MAX_STRING_VIEW)),
        ),
      );
    li.appendChild(full);
    return;
  }
  const group = el('ul', { role: 'group', class: 'ptc-group' });
  for (const child of childInfos(info)) group.appendChild(item(infos, child));
  li.appendChild(group);
}

function childInfos(info: NodeInfo): NodeInfo[] {
  let entries: Entry[];
  let from = 0;
  let to: number;
  let isArray: boolean;
  if (info.type === 'value') {
    const v = info.value;
    isArray = Array.isArray(v);
    entries = isArray
      ? (v as JsonValue[]).map((x, i): Entry => [String(i), x])
      : Object.entries(v as Record<string, JsonValue>);
    to = entries.length;
  } else {
    ({ entries, from, to, isArray } = info);
  }
  const count = to - from;
  const depth = info.depth + 1;
  if (count <= PAGE) {
    const out: NodeInfo[] = [];
    for (let i = from; i < to; i += 1) {
      const [key, value] = entries[i] as Entry;
      out.push({ type: 'value', key: isArray || key === undefined ? key : keyText(key), value, depth });
    }
    return out;
  }
  let size = PAGE;
  while (count / size > PAGE) size *= PAGE;
  const out: NodeInfo[] = [];
  for (let start = from; start < to; start += size)
    out.push({ type: 'range', entries, from: start, to: Math.min(to, start + size), depth, isArray });
  return out;
}

function expandTo(li: HTMLElement, depth: number, infos: WeakMap<Element, NodeInfo>): void {
  if (depth <= 0 || li.getAttribute('aria-expanded') !== 'false') return;
  const info = infos.get(li);
  // strings stay collapsed: their preview already shows them
  if (info?.type === 'value' && typeof info.value === 'string') return;
  toggle(li, infos);
  for (const child of Array.from(li.querySelectorAll(':scope > [role="group"] > [role="treeitem"]')))
    expandTo(child as HTMLElement, depth - 1, infos);
}

function focusItem(tree: HTMLElement, li: HTMLElement): void {
  const current = tree.querySelector('[role="treeitem"][tabindex="0"]');
  if (current !== null && current !== li) current.setAttribute('tabindex', '-1');
  li.tabIndex = 0;
  li.focus();
}

function firstChild(li: HTMLElement): HTMLElement | null {
  return li.querySelector(':scope > [role="group"] > [role="treeitem"]');
}

function parentItem(li: HTMLElement): HTMLElement | null {
  return li.parentElement?.closest('[role="treeitem"]') ?? null;
}

function nextVisible(li: HTMLElement): HTMLElement | null {
  if (li.getAttribute('aria-expanded') === 'true') {
    const child = firstChild(li);
    if (child !== null) return child;
  }
  for (let node: HTMLElement | null = li; node !== null; node = parentItem(node)) {
    const sibling = node.nextElementSibling as HTMLElement | null;
    if (sibling !== null) return sibling;
  }
  return null;
}

function previousVisible(li: HTMLElement): HTMLElement | null {
  const sibling = li.previousElementSibling as HTMLElement | null;
  return sibling === null ? parentItem(li) : lastVisible(sibling);
}

function lastVisible(li: HTMLElement): HTMLElement {
  let node = li;
  while (node.getAttribute('aria-expanded') === 'true') {
    const last = node.querySelector(':scope > [role="group"] > [role="treeitem"]:last-child') as HTMLElement | null;
    if (last === null) break;
    node = last;
  }
  return node;
}
