import * as l10n from '@vscode/l10n';
import type { RunResult } from '../../runtime/protocol/run-result.js';
import { el, srOnly } from '../dom/el.js';
import { copyButton } from '../dom/copy-button.js';
import { section } from '../dom/section.js';
import { appendVisibleText } from '../dom/visible-text-dom.js';
import type { ViewContext } from '../dom/view-context.js';
import { formatBytes, formatCount } from '../shared/format.js';
import { truncationOf, truncationText } from '../shared/truncation.js';
import { utf8Length } from '../shared/utf8-length.js';

// The first chunk is kept small so first paint stays fast; the rest streams in after it.
const FIRST_CHUNK_CHARS = 24_000;
const FIRST_CHUNK_ENTRIES = 150;
const CHUNK_ENTRIES = 400;
const CHUNK_CHARS = 200_000;
// A single huge entry shows its head; the rest is one click away.
const ENTRY_PREVIEW_CHARS = 20_000;

// Printed output: entries in order, stderr marked, explicit truncation, streamed in chunks for megabytes of logs.
export function printedOutputSection(ctx: ViewContext, result: RunResult): HTMLElement | undefined {
  const truncation = truncationOf(result);
  if (result.logs.length === 0 && truncation === undefined) return undefined;
  const stderr = new Set(result.stderrLogs ?? []);
  let chars = 0;
  for (const entry of result.logs) chars += entry.length;
  const bytes = chars > 5_000_000 ? chars : result.logs.reduce((n, e) => n + utf8Length(e), 0);
  const meta = [
    result.logs.length === 1 ? l10n.t('1 entry') : l10n.t('{0} entries', formatCount(result.logs.length)),
    stderr.size > 0 ? l10n.t('{0} stderr', formatCount(stderr.size)) : '',
    chars > 5_000_000 ? l10n.t('≈ {0}', formatBytes(bytes, l10n.t)) : formatBytes(bytes, l10n.t),
    truncation === undefined ? '' : truncationText(truncation, l10n.t),
  ]
    .filter((s) => s !== '')
    .join(' · ');
  return section({
    ctx,
    key: 'printed-output',
    title: l10n.t('Printed output'),
    meta,
    tone: truncation === undefined ? undefined : 'warning',
    actions: [copyButton(ctx, l10n.t('Copy printed output'), () => result.logs.join('\n'), 'text')],
    body: () =>
      logsBody(ctx, result, stderr, truncation === undefined ? undefined : truncationText(truncation, l10n.t)),
  }).element;
}

// The compact view's printed lines: no heading, just the lines (a cut is said only where no failure already says it).
export function printedLines(ctx: ViewContext, result: RunResult): HTMLElement | undefined {
  if (result.logs.length === 0) return undefined;
  const truncation = truncationOf(result);
  const stated =
    truncation === undefined || truncation.source === 'output-limit' ? undefined : truncationText(truncation, l10n.t);
  return el(
    'div',
    { class: 'ptc-part ptc-part-logs', 'data-part': 'printed-output' },
    logsBody(ctx, result, new Set(result.stderrLogs ?? []), stated),
  );
}

function logsBody(ctx: ViewContext, result: RunResult, stderr: Set<number>, truncated: string | undefined): Node {
  const list = el('div', {
    class: 'ptc-logs',
    role: 'list',
    'aria-label': l10n.t('Printed output'),
    tabindex: 0,
    'data-complete': 'false',
  });
  const notice =
    truncated === undefined
      ? null
      : el(
          'p',
          { class: 'ptc-truncated', role: 'note' },
          l10n.t('⚠ {0}: later output was not captured.', capitalize(truncated)),
        );
  const logs = result.logs;
  let index = 0;
  const chunk = (maxEntries: number, maxChars: number): void => {
    const box = el('div', { class: 'ptc-log-chunk' });
    let used = 0;
    const start = index;
    while (index < logs.length && index - start < maxEntries && (used < maxChars || index === start)) {
      const text = logs[index] ?? '';
      box.appendChild(entry(ctx, text, index, stderr.has(index)));
      used += Math.min(text.length, ENTRY_PREVIEW_CHARS);
      index += 1;
    }
    list.appendChild(box);
    if (index < logs.length) ctx.later(() => chunk(CHUNK_ENTRIES, CHUNK_CHARS));
    else list.setAttribute('data-complete', 'true');
  };
  if (logs.length === 0) list.setAttribute('data-complete', 'true');
  else chunk(FIRST_CHUNK_ENTRIES, FIRST_CHUNK_CHARS);
  return el('div', { class: 'ptc-logs-wrap' }, list, notice);
}

function entry(ctx: ViewContext, text: string, index: number, isStderr: boolean): HTMLElement {
  const row = el('div', {
    class: isStderr ? 'ptc-log-entry ptc-stderr' : 'ptc-log-entry',
    role: 'listitem',
    dir: 'auto',
    'data-index': index,
  });
  if (isStderr)
    row.append(
      el('span', { class: 'ptc-stream-tag', 'aria-hidden': 'true' }, l10n.t('err')),
      srOnly(l10n.t('stderr: ')),
    );
  const textBox = el('span', { class: 'ptc-log-text' });
  row.appendChild(textBox);
  if (text.length <= ENTRY_PREVIEW_CHARS) {
    appendVisibleText(textBox, text);
    return row;
  }
  appendVisibleText(textBox, text.slice(0, ENTRY_PREVIEW_CHARS));
  const more = el(
    'button',
    { type: 'button', class: 'ptc-button ptc-link' },
    l10n.t('Show all {0} characters', formatCount(text.length)),
  );
  more.addEventListener(
    'click',
    () => {
      textBox.textContent = '';
      appendVisibleText(textBox, text);
      more.remove();
    },
    { signal: ctx.signal, once: true },
  );
  row.append(el('span', { class: 'ptc-note' }, ' …'), more);
  return row;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
