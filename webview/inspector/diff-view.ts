import * as l10n from '@vscode/l10n';
import type { CallRecord } from '../../runtime/protocol/run-result.js';
import { el } from '../dom/el.js';
import { previewText } from '../dom/json-summary.js';
import { jsonTree } from '../dom/json-tree.js';
import { section } from '../dom/section.js';
import { appendVisibleText } from '../dom/visible-text-dom.js';
import type { ViewContext } from '../dom/view-context.js';
import type { InspectorRun } from '../protocol/inspector-messages.js';
import { callLabel, callSummaryText, callTotal } from '../shared/call-flags.js';
import { formatCount, formatDuration } from '../shared/format.js';
import type { DiffRow } from '../shared/line-diff.js';
import {
  diffRuns,
  type CallDiffRow,
  type Divergence,
  type DivergenceSection,
  type RunDiff,
} from '../shared/run-diff.js';

// Identical stretches longer than this fold to a "n identical lines" row (with 3 lines of context each side).
const FOLD = 8;
const CONTEXT = 3;
const MAX_ROWS = 3_000;

// Two runs side by side: calls, printed output, value and outcome, the first divergence highlighted and one click away.
// `sections` limits the view (the then-vs-now tab hides output sections a transcript records in another shape).
export function diffView(
  ctx: ViewContext,
  left: InspectorRun,
  right: InspectorRun,
  options: { sections?: readonly DivergenceSection[] } = {},
): HTMLElement {
  const diff = diffRuns(left.payload.result, right.payload.result, l10n.t);
  const shown = new Set<DivergenceSection>(options.sections ?? ['calls', 'logs', 'value', 'outcome']);
  const first = firstShown(diff, shown);
  const summary = el('p', {
    class: first === undefined ? 'ptc-diff-summary ptc-diff-same' : 'ptc-diff-summary',
    role: 'status',
  });
  const container = el('div', { class: 'ptc-diff', 'data-first-section': first?.section });
  const names: Record<DivergenceSection, string> = {
    calls: l10n.t('calls'),
    logs: l10n.t('printed output'),
    value: l10n.t('return value'),
    outcome: l10n.t('outcome'),
  };
  const agreed = (['calls', 'logs', 'value', 'outcome'] as const).filter((k) => shown.has(k)).map((k) => names[k]);
  if (first === undefined)
    summary.append(
      l10n.t(
        'The two runs agree: same {0}.',
        agreed.length > 1
          ? l10n.t('{0} and {1}', agreed.slice(0, -1).join(', '), agreed[agreed.length - 1] ?? '')
          : (agreed[0] ?? ''),
      ),
    );
  else {
    const jump = el('button', { type: 'button', class: 'ptc-button ptc-primary' }, l10n.t('Jump to it'));
    jump.addEventListener(
      'click',
      () => {
        const target = container.querySelector<HTMLElement>('.ptc-first-divergence');
        target?.scrollIntoView({ block: 'center' });
        target?.focus();
      },
      { signal: ctx.signal },
    );
    summary.append(el('strong', {}, l10n.t('First divergence: ')), first.description, ' ', jump);
  }
  container.append(summary);
  if (shown.has('calls')) container.append(callsSection(ctx, diff, left, right));
  if (shown.has('logs'))
    container.append(
      linesSection(ctx, 'logs', l10n.t('Printed output'), diff.logs, first?.section === 'logs' ? first.row : -1),
    );
  if (shown.has('value'))
    container.append(
      linesSection(
        ctx,
        'value',
        l10n.t('Return value'),
        diff.value,
        first?.section === 'value' ? first.row : -1,
        missingValueNote(left, right),
      ),
    );
  if (shown.has('outcome')) container.append(outcomeSection(ctx, diff, left, right));
  return container;
}

// The first divergence among the sections shown (hidden ones are only ever the output sections between calls and
// outcome).
function firstShown(diff: RunDiff, shown: ReadonlySet<DivergenceSection>): Divergence | undefined {
  if (diff.first === undefined || shown.has(diff.first.section)) return diff.first;
  if (shown.has('outcome') && !diff.outcome.same)
    return { section: 'outcome', row: 0, description: l10n.t('outcome differs') };
  return undefined;
}

function callsSection(ctx: ViewContext, diff: RunDiff, left: InspectorRun, right: InspectorRun): HTMLElement {
  const differing = diff.calls.filter((c) => c.differences.length > 0).length;
  return section({
    ctx,
    key: 'diff-calls',
    title: l10n.t('Binding calls'),
    meta: l10n.t(
      '{0} vs {1} · {2} differ',
      formatCount(callTotal(left.payload.result)),
      formatCount(callTotal(right.payload.result)),
      formatCount(differing),
    ),
    tone: differing > 0 ? 'warning' : undefined,
    body: () => {
      if (diff.calls.length === 0) return el('p', { class: 'ptc-muted' }, l10n.t('Neither run made a binding call.'));
      const firstRow = diff.first?.section === 'calls' ? diff.first.row : -1;
      const body = el('tbody', {});
      for (const row of diff.calls.slice(0, MAX_ROWS)) body.append(...callRows(ctx, row, row.index === firstRow));
      return el(
        'div',
        { class: 'ptc-diff-scroll' },
        el(
          'table',
          { class: 'ptc-diff-table ptc-diff-calls' },
          el(
            'thead',
            {},
            el(
              'tr',
              {},
              el('th', { scope: 'col' }, ''),
              el('th', { scope: 'col' }, left.label),
              el('th', { scope: 'col' }, right.label),
            ),
          ),
          body,
        ),
        diff.calls.length > MAX_ROWS
          ? el('p', { class: 'ptc-note' }, l10n.t('{0} more rows not shown', formatCount(diff.calls.length - MAX_ROWS)))
          : null,
        summarizedNote(left, right),
      );
    },
  }).element;
}

function callRows(ctx: ViewContext, row: CallDiffRow, isFirst: boolean): HTMLElement[] {
  const state = row.differences.length === 0 ? 'same' : row.differences[0] === 'missing' ? 'missing' : 'changed';
  const toggle = el(
    'button',
    {
      type: 'button',
      class: 'ptc-row-toggle',
      'aria-expanded': 'false',
      'aria-label': l10n.t('Compare call {0} in detail', row.index + 1),
    },
    '▸',
  );
  const tr = el(
    'tr',
    {
      class: `ptc-diff-${state}${isFirst ? ' ptc-first-divergence' : ''}`,
      tabindex: isFirst ? -1 : undefined,
      'data-row': row.index,
      'data-differences': row.differences.join(' '),
    },
    el('td', { class: 'ptc-diff-no' }, toggle),
    callCell(row.left, row.differences),
    callCell(row.right, row.differences),
  );
  const detail = el('tr', { class: 'ptc-diff-detail', hidden: true });
  let built = false;
  toggle.addEventListener(
    'click',
    () => {
      const open = toggle.getAttribute('aria-expanded') !== 'true';
      toggle.setAttribute('aria-expanded', String(open));
      toggle.textContent = open ? '▾' : '▸';
      if (open && !built) {
        built = true;
        detail.append(el('td', {}), callDetailCell(ctx, row.left), callDetailCell(ctx, row.right));
      }
      detail.hidden = !open;
    },
    { signal: ctx.signal },
  );
  return [tr, detail];
}

function callCell(call: CallRecord | undefined, differences: readonly string[]): HTMLElement {
  if (call === undefined) return el('td', { class: 'ptc-diff-empty' }, l10n.t('(no call)'));
  const td = el('td', {});
  const head = el(
    'code',
    { class: differences.includes('name') ? 'ptc-diff-mark' : undefined },
    `#${call.id} ${callLabel(call)}`,
  );
  const args = el('code', { class: differences.includes('args') ? 'ptc-diff-mark ptc-diff-args' : 'ptc-diff-args' });
  appendVisibleText(args, previewText(call.args));
  const marked = differences.some((d) => d === 'outcome' || d === 'value' || d === 'message');
  const answer = el('span', { class: marked ? 'ptc-diff-answer ptc-diff-mark' : 'ptc-diff-answer' });
  appendVisibleText(
    answer,
    call.ok
      ? `→ ${call.value === undefined ? l10n.t('(no value)') : previewText(call.value)}`
      : `✗ ${(call.message ?? '').split('\n')[0] ?? ''}`,
  );
  td.append(
    head,
    ' ',
    args,
    el('br', {}),
    answer,
    el(
      'span',
      { class: 'ptc-muted' },
      ` · ${formatDuration(call.durationMs, l10n.t)}${call.replayed === true ? ` · ${l10n.t('replayed')}` : ''}`,
    ),
  );
  return td;
}

function callDetailCell(ctx: ViewContext, call: CallRecord | undefined): HTMLElement {
  if (call === undefined) return el('td', { class: 'ptc-diff-empty' }, l10n.t('(no call)'));
  const td = el(
    'td',
    {},
    el('p', { class: 'ptc-label' }, l10n.t('Arguments')),
    jsonTree(call.args, { ctx, label: l10n.t('Arguments of call #{0}', call.id), expandDepth: 2 }),
  );
  if (call.ok && call.value !== undefined)
    td.append(
      el('p', { class: 'ptc-label' }, l10n.t('Value')),
      jsonTree(call.value, { ctx, label: l10n.t('Value of call #{0}', call.id), expandDepth: 1 }),
    );
  if (!call.ok) {
    const pre = el('pre', { class: 'ptc-call-message' });
    appendVisibleText(pre, call.message ?? '');
    td.append(el('p', { class: 'ptc-label' }, l10n.t('Error message')), pre);
  }
  return td;
}

// Says which side returned nothing, so an empty column reads as "no value" rather than as a rendering gap.
function missingValueNote(left: InspectorRun, right: InspectorRun): string | undefined {
  const l = left.payload.result.value === undefined;
  const r = right.payload.result.value === undefined;
  if (l === r) return undefined;
  return (l ? left : right).payload.result.error === undefined
    ? l10n.t('{0} returned no value.', l ? left.label : right.label)
    : l10n.t('{0} returned no value (it failed).', l ? left.label : right.label);
}

// A side-by-side line diff as a collapsible section (identical stretches fold).
export function linesSection(
  ctx: ViewContext,
  key: string,
  title: string,
  rows: DiffRow[],
  firstRow: number,
  note?: string,
): HTMLElement {
  const changed = rows.filter((r) => r.op !== 'same').length;
  return section({
    ctx,
    key: `diff-${key}`,
    title,
    meta:
      changed === 0
        ? l10n.t('identical')
        : changed === 1
          ? l10n.t('1 line differs')
          : l10n.t('{0} lines differ', formatCount(changed)),
    tone: changed > 0 ? 'warning' : undefined,
    body: () => {
      if (rows.length === 0) return el('p', { class: 'ptc-muted' }, l10n.t('Empty in both runs.'));
      const body = el('tbody', {});
      let shown = 0;
      for (const part of fold(rows)) {
        if (shown >= MAX_ROWS) break;
        if (part.type === 'fold') {
          body.append(foldRow(ctx, part.rows, firstRow));
          shown += 1;
          continue;
        }
        body.append(lineRow(part.row, part.index === firstRow));
        shown += 1;
      }
      return el(
        'div',
        { class: 'ptc-diff-scroll' },
        note === undefined ? null : el('p', { class: 'ptc-note ptc-diff-note' }, note),
        el('table', { class: 'ptc-diff-table ptc-diff-lines' }, body),
        shown >= MAX_ROWS
          ? el('p', { class: 'ptc-note' }, l10n.t('Only the first rows are shown; copy the runs to compare the rest.'))
          : null,
      );
    },
  }).element;
}

type Part = { type: 'row'; row: DiffRow; index: number } | { type: 'fold'; rows: { row: DiffRow; index: number }[] };

function fold(rows: DiffRow[]): Part[] {
  const parts: Part[] = [];
  let i = 0;
  while (i < rows.length) {
    if (rows[i]?.op !== 'same') {
      parts.push({ type: 'row', row: rows[i] as DiffRow, index: i });
      i += 1;
      continue;
    }
    let j = i;
    while (j < rows.length && rows[j]?.op === 'same') j += 1;
    const head = i === 0 ? 0 : CONTEXT;
    const tail = j === rows.length ? 0 : CONTEXT;
    if (j - i > FOLD && j - i > head + tail) {
      for (let k = i; k < i + head; k += 1) parts.push({ type: 'row', row: rows[k] as DiffRow, index: k });
      const folded: { row: DiffRow; index: number }[] = [];
      for (let k = i + head; k < j - tail; k += 1) folded.push({ row: rows[k] as DiffRow, index: k });
      parts.push({ type: 'fold', rows: folded });
      for (let k = j - tail; k < j; k += 1) parts.push({ type: 'row', row: rows[k] as DiffRow, index: k });
    } else for (let k = i; k < j; k += 1) parts.push({ type: 'row', row: rows[k] as DiffRow, index: k });
    i = j;
  }
  return parts;
}

function foldRow(ctx: ViewContext, rows: { row: DiffRow; index: number }[], firstRow: number): HTMLElement {
  const button = el(
    'button',
    { type: 'button', class: 'ptc-button ptc-link' },
    l10n.t('⋯ {0} identical lines', formatCount(rows.length)),
  );
  const tr = el('tr', { class: 'ptc-diff-fold' }, el('td', { colspan: 4 }, button));
  button.addEventListener(
    'click',
    () => {
      tr.replaceWith(...rows.slice(0, MAX_ROWS).map((r) => lineRow(r.row, r.index === firstRow)));
    },
    { signal: ctx.signal, once: true },
  );
  return tr;
}

function lineRow(row: DiffRow, isFirst: boolean): HTMLElement {
  const leftText = row.op === 'added' ? undefined : row.left;
  const rightText = row.op === 'removed' ? undefined : row.right;
  const leftNo = row.op === 'added' ? '' : String(row.leftNo);
  const rightNo = row.op === 'removed' ? '' : String(row.rightNo);
  return el(
    'tr',
    { class: `ptc-diff-${row.op}${isFirst ? ' ptc-first-divergence' : ''}`, tabindex: isFirst ? -1 : undefined },
    el('td', { class: 'ptc-line-no' }, leftNo),
    textCell(leftText, row.op === 'removed' || row.op === 'changed' ? 'ptc-diff-left' : ''),
    el('td', { class: 'ptc-line-no' }, rightNo),
    textCell(rightText, row.op === 'added' || row.op === 'changed' ? 'ptc-diff-right' : ''),
  );
}

function textCell(text: string | undefined, cls: string): HTMLElement {
  const td = el('td', { class: `ptc-line-text ${cls}`.trim(), dir: 'auto' });
  if (text === undefined) td.classList.add('ptc-diff-empty');
  else appendVisibleText(td, text);
  return td;
}

function outcomeSection(ctx: ViewContext, diff: RunDiff, left: InspectorRun, right: InspectorRun): HTMLElement {
  const l = left.payload.result;
  const r = right.payload.result;
  // durations always differ a little: shown, never flagged
  const fact = (key: string, name: string, a: string, b: string, compare = true): HTMLElement =>
    el(
      'tr',
      { class: !compare || a === b ? 'ptc-diff-same' : 'ptc-diff-changed', 'data-fact': key },
      el('th', { scope: 'row' }, name),
      cellText(a),
      cellText(b),
    );
  return section({
    ctx,
    key: 'diff-outcome',
    title: l10n.t('Outcome'),
    meta: diff.outcome.same ? l10n.t('same') : l10n.t('differs'),
    tone: diff.outcome.same ? undefined : 'warning',
    body: () =>
      el(
        'table',
        { class: 'ptc-diff-table ptc-diff-outcome' },
        el(
          'thead',
          {},
          el(
            'tr',
            {},
            el('th', {}, ''),
            el('th', { scope: 'col' }, left.label),
            el('th', { scope: 'col' }, right.label),
          ),
        ),
        el(
          'tbody',
          {},
          fact('outcome', l10n.t('Outcome'), diff.outcome.left, diff.outcome.right),
          fact('mode', l10n.t('Mode'), l.mode ?? '—', r.mode ?? '—'),
          fact('calls', l10n.t('Calls'), String(callTotal(l)), String(callTotal(r))),
          fact(
            'duration',
            l10n.t('Duration'),
            formatDuration(l.durationMs, l10n.t),
            formatDuration(r.durationMs, l10n.t),
            false,
          ),
        ),
      ),
  }).element;
}

// Calls past the first ones a result keeps are compared by their counts (the Calls row of the outcome), not one by one.
function summarizedNote(left: InspectorRun, right: InspectorRun): HTMLElement | null {
  const notes = [left, right].map((run) => callSummaryText(run.payload.result, l10n.t)).filter((t) => t !== undefined);
  if (notes.length === 0) return null;
  return el(
    'p',
    { class: 'ptc-note' },
    l10n.t('Compared one by one: the calls each result keeps in full ({0}).', notes.join('; ')),
  );
}

function cellText(text: string): HTMLElement {
  const td = el('td', {});
  appendVisibleText(td, text);
  return td;
}
