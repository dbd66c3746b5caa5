import * as l10n from '@vscode/l10n';
import type { RunResult } from '../../runtime/protocol/run-result.js';
import { el } from '../dom/el.js';
import { copyButton } from '../dom/copy-button.js';
import { badgeText } from '../dom/json-summary.js';
import { jsonTree } from '../dom/json-tree.js';
import { section } from '../dom/section.js';
import type { ViewContext } from '../dom/view-context.js';
import { jsonText } from '../shared/json-text.js';

// Return value: an expandable JSON tree with copy-as-JSON; "nothing returned" is said, not left blank.
export function returnValueSection(ctx: ViewContext, result: RunResult, expandDepth = 1): HTMLElement | undefined {
  const value = result.value;
  if (value === undefined) {
    if (result.error !== undefined) return undefined;
    return section({
      ctx,
      key: 'return-value',
      title: l10n.t('Return value'),
      meta: l10n.t('none'),
      body: () => el('p', { class: 'ptc-muted' }, l10n.t('The program did not return a value.')),
    }).element;
  }
  return section({
    ctx,
    key: 'return-value',
    title: l10n.t('Return value'),
    // JSON's own type name and size, like code: never translated
    meta: el('span', { class: 'ptc-type-tag' }, badgeText(value)),
    actions: [copyButton(ctx, l10n.t('Copy return value as JSON'), () => jsonText(value, { indent: 2 }))],
    body: () =>
      el('div', { class: 'ptc-tree-wrap' }, jsonTree(value, { ctx, label: l10n.t('Return value'), expandDepth })),
  }).element;
}

// The compact view's value: "→" and the tree (collapsed past the first level), like a REPL's Out line; nothing when
// the program returned nothing.
export function valueBlock(ctx: ViewContext, result: RunResult): HTMLElement | undefined {
  const value = result.value;
  if (value === undefined) return undefined;
  return el(
    'div',
    { class: 'ptc-part ptc-part-value', 'data-part': 'return-value' },
    el('span', { class: 'ptc-out-label', title: l10n.t('Return value'), 'aria-hidden': 'true' }, '→'),
    el('div', { class: 'ptc-tree-wrap' }, jsonTree(value, { ctx, label: l10n.t('Return value'), expandDepth: 1 })),
    copyButton(ctx, l10n.t('Copy return value as JSON'), () => jsonText(value, { indent: 2 })),
  );
}
