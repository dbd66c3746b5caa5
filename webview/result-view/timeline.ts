import * as l10n from '@vscode/l10n';
import type { CallRecord, RunResult } from '../../runtime/protocol/run-result.js';
import { el } from '../dom/el.js';
import { labelledButton } from '../dom/labelled-button.js';
import { section } from '../dom/section.js';
import { SELECT_CALL, type SelectCallDetail, type ViewContext } from '../dom/view-context.js';
import {
  callLabel,
  callSummaryText,
  callTotal,
  divergedCallIds,
  failedCallCount,
  keptCalls,
} from '../shared/call-flags.js';
import { formatCount, formatDuration } from '../shared/format.js';
import { layoutTimeline, type TimelineBar, type TimelineLayout } from '../shared/timeline-layout.js';
import { callDetails, progressSummary } from './call-details.js';

const ZOOMS = [1, 2, 4, 8, 16, 32, 64];
// below this a bar's label would be a sliver of text
const MIN_LABEL_PX = 44;

// The binding-call waterfall: the run's time axis, concurrent calls in parallel lanes, click or keys to inspect a call.
export function timelineSection(ctx: ViewContext, result: RunResult): HTMLElement | undefined {
  if (result.calls.length === 0) return undefined;
  const diverged = divergedCallIds(result);
  // a summarized run: bars for the calls kept in full, counts for all of them
  const failed = result.callSummary === undefined ? result.calls.filter((c) => !c.ok).length : failedCallCount(result);
  const layout = layoutTimeline(keptCalls(result), result.durationMs, result.startupMs);
  const meta = [
    callsText(callTotal(result)),
    failed > 0 ? l10n.t('{0} failed', formatCount(failed)) : '',
    diverged.size > 0 ? l10n.t('{0} diverged', formatCount(diverged.size)) : '',
    layout.lanes === 1 ? l10n.t('1 lane') : l10n.t('{0} lanes', formatCount(layout.lanes)),
  ]
    .filter((s) => s !== '')
    .join(' · ');
  let zoom = 0;
  const track = el('div', {
    class: 'ptc-track',
    role: 'group',
    'aria-label': l10n.t(
      "Binding calls on a {0} time axis from the program's hand-over",
      formatDuration(layout.spanMs, l10n.t),
    ),
  });
  const zoomLabel = el('span', { class: 'ptc-zoom-level', 'aria-live': 'polite' }, '1×');
  const zoomButton = (label: string, face: string, delta: number | 'fit'): HTMLButtonElement =>
    labelledButton(ctx, { class: 'ptc-button ptc-icon-button', label, face }, () => {
      zoom = delta === 'fit' ? 0 : Math.max(0, Math.min(ZOOMS.length - 1, zoom + delta));
      const factor = ZOOMS[zoom] ?? 1;
      track.style.setProperty('width', `${factor * 100}%`);
      zoomLabel.textContent = `${factor}×`;
      selected()?.scrollIntoView({ block: 'nearest', inline: 'center' });
    });
  const actions = [
    zoomButton(l10n.t('Zoom out'), '−', -1),
    zoomLabel,
    zoomButton(l10n.t('Zoom in'), '+', 1),
    zoomButton(l10n.t('Fit to width'), l10n.t('Fit'), 'fit'),
  ];
  let selected: () => HTMLButtonElement | undefined = () => undefined;
  const built = section({
    ctx,
    key: 'timeline',
    title: l10n.t('Binding calls'),
    meta,
    actions,
    body: () => {
      const body = buildBody(ctx, result, layout, diverged, track);
      selected = body.selected;
      return body.element;
    },
  });
  ctx.bus.addEventListener(
    SELECT_CALL,
    (event) => {
      const detail = (event as CustomEvent<SelectCallDetail>).detail;
      built.setOpen(true);
      const bar = track.querySelector<HTMLButtonElement>(`[data-call-id="${detail.callId}"]`);
      bar?.click();
      if (detail.focus) bar?.focus();
      bar?.scrollIntoView({ block: 'nearest', inline: 'center' });
    },
    { signal: ctx.signal },
  );
  return built.element;
}

function buildBody(
  ctx: ViewContext,
  result: RunResult,
  layout: TimelineLayout,
  diverged: Set<number>,
  track: HTMLElement,
): { element: HTMLElement; selected: () => HTMLButtonElement | undefined } {
  const { bars, lanes, ticks, originMs: origin } = layout;
  const axis = el('div', { class: 'ptc-axis', 'aria-hidden': 'true' });
  for (const tick of ticks) {
    const t = el('span', { class: 'ptc-tick' }, formatDuration(tick.ms, l10n.t));
    t.style.setProperty('left', `${tick.at * 100}%`);
    if (tick.at > 0.92) t.classList.add('ptc-tick-end');
    axis.append(t);
  }
  const laneBox = el('div', { class: 'ptc-lanes' });
  laneBox.style.setProperty('height', `calc(${lanes} * var(--ptc-lane-height))`);
  const order: HTMLButtonElement[] = [];
  const fragment = document.createDocumentFragment();
  for (const bar of bars) {
    const button = barButton(bar, diverged.has(bar.call.id), origin);
    order.push(button);
    fragment.append(button);
  }
  laneBox.append(fragment);
  track.append(axis, laneBox);
  labelWideBars(ctx, track, order, bars);
  const details = el(
    'div',
    { class: 'ptc-call-details', 'aria-live': 'polite' },
    el('p', { class: 'ptc-muted' }, l10n.t('Select a call to see its arguments and answer.')),
  );
  const byButton = new Map(order.map((b, i) => [b, bars[i] as TimelineBar]));
  let current: HTMLButtonElement | undefined;
  const select = (button: HTMLButtonElement): void => {
    if (current !== undefined) {
      current.setAttribute('aria-pressed', 'false');
      current.tabIndex = -1;
    }
    current = button;
    button.setAttribute('aria-pressed', 'true');
    button.tabIndex = 0;
    const bar = byButton.get(button);
    if (bar !== undefined) details.replaceChildren(callDetails(ctx, bar.call, diverged.has(bar.call.id)));
  };
  if (order[0] !== undefined) order[0].tabIndex = 0;
  laneBox.addEventListener(
    'click',
    (event) => {
      const button = (event.target as Element).closest('.ptc-bar') as HTMLButtonElement | null;
      if (button !== null) select(button);
    },
    { signal: ctx.signal },
  );
  laneBox.addEventListener(
    'keydown',
    (event) => {
      const button = (event.target as Element).closest('.ptc-bar') as HTMLButtonElement | null;
      if (button === null) return;
      const at = order.indexOf(button);
      let next: HTMLButtonElement | undefined;
      if (event.key === 'ArrowRight') next = order[at + 1];
      else if (event.key === 'ArrowLeft') next = order[at - 1];
      else if (event.key === 'Home') next = order[0];
      else if (event.key === 'End') next = order[order.length - 1];
      else if (event.key === 'ArrowDown' || event.key === 'ArrowUp')
        next = nearestInLane(order, byButton, button, event.key === 'ArrowDown' ? 1 : -1);
      else return;
      event.preventDefault();
      if (next === undefined) return;
      if (current !== button) button.tabIndex = -1;
      select(next);
      next.focus();
      next.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    },
    { signal: ctx.signal },
  );
  const element = el(
    'div',
    { class: 'ptc-timeline' },
    legend(result, diverged),
    callSummaryNote(result),
    el('div', { class: 'ptc-timeline-scroll' }, track),
    details,
  );
  return { element, selected: () => current };
}

function barButton(bar: TimelineBar, isDiverged: boolean, origin: number): HTMLButtonElement {
  const call = bar.call;
  const label = callLabel(call);
  const classes = ['ptc-bar', call.ok ? 'ptc-bar-ok' : 'ptc-bar-failed'];
  if (call.replayed === true) classes.push('ptc-bar-replayed');
  if (isDiverged) classes.push('ptc-bar-diverged');
  if (call.schemaViolation !== undefined) classes.push('ptc-bar-schema');
  if (call.progress !== undefined && call.progress.length > 0) classes.push('ptc-bar-progress');
  const states = [
    call.ok ? l10n.t('ok') : l10n.t('failed'),
    call.replayed === true ? l10n.t('replayed') : '',
    isDiverged ? l10n.t('diverged from the cassette') : '',
    call.schemaViolation === undefined ? '' : l10n.t('schema violation'),
    progressSummary(call) ?? '',
  ]
    .filter((s) => s !== '')
    .join(', ');
  const description = l10n.t(
    '#{0} {1}, started at {2}, took {3}, {4}',
    call.id,
    label,
    formatDuration(call.startedAtMs - origin, l10n.t),
    formatDuration(call.durationMs, l10n.t),
    states,
  );
  const button = el('button', {
    type: 'button',
    class: classes.join(' '),
    tabindex: -1,
    'aria-pressed': 'false',
    'aria-label': description,
    title: description,
    'data-call-id': call.id,
    'data-lane': bar.lane,
  });
  button.style.setProperty('left', `${bar.start * 100}%`);
  button.style.setProperty('width', `${bar.width * 100}%`);
  button.style.setProperty('top', `calc(${bar.lane} * var(--ptc-lane-height))`);
  return button;
}

// Only bars wide enough for a readable label get its text (in aria-label and the tooltip either way); set once the
// track has a width and again on every resize or zoom. The observer runs before the first paint, and laying out
// text only where it shows halves the layout of a 300-call run.
function labelWideBars(ctx: ViewContext, track: HTMLElement, buttons: HTMLButtonElement[], bars: TimelineBar[]): void {
  const observer = new ResizeObserver((entries) => {
    const width = entries[entries.length - 1]?.contentRect.width ?? 0;
    buttons.forEach((button, i) => {
      const bar = bars[i];
      if (bar === undefined) return;
      const wide = bar.width * width >= MIN_LABEL_PX;
      // only touch bars whose state changes: each write lays that bar out again
      if (wide !== button.hasChildNodes()) button.textContent = wide ? callLabel(bar.call) : '';
    });
  });
  observer.observe(track);
  ctx.signal.addEventListener('abort', () => observer.disconnect(), { once: true });
}

// Up/Down: the bar in the neighbouring lane closest in time.
function nearestInLane(
  order: HTMLButtonElement[],
  bars: Map<HTMLButtonElement, TimelineBar>,
  from: HTMLButtonElement,
  step: number,
): HTMLButtonElement | undefined {
  const origin = bars.get(from);
  if (origin === undefined) return undefined;
  const lane = origin.lane + step;
  let best: HTMLButtonElement | undefined;
  let distance = Infinity;
  for (const b of order) {
    const bar = bars.get(b);
    if (bar === undefined || bar.lane !== lane) continue;
    const d = Math.abs(bar.start - origin.start);
    if (d < distance) {
      distance = d;
      best = b;
    }
  }
  return best;
}

// A run with more calls than a result keeps: which ones are drawn, and every binding's counts.
function callSummaryNote(result: RunResult): HTMLElement | null {
  const text = callSummaryText(result, l10n.t);
  if (text === undefined || result.callSummary === undefined) return null;
  const list = el('ul', { class: 'ptc-call-counts' });
  for (const count of result.callSummary.byBinding) {
    const unanswered = count.calls - count.ok - count.failed;
    list.append(
      el(
        'li',
        { 'data-binding': callLabel(count) },
        el('code', {}, callLabel(count)),
        ': ',
        [
          callsText(count.calls),
          l10n.t('{0} ok', formatCount(count.ok)),
          l10n.t('{0} failed', formatCount(count.failed)),
          unanswered > 0 ? l10n.t('{0} not answered', formatCount(unanswered)) : '',
        ]
          .filter((s) => s !== '')
          .join(' · '),
      ),
    );
  }
  return el(
    'div',
    { class: 'ptc-call-summary', 'data-call-summary': 'true' },
    el('p', { class: 'ptc-note' }, l10n.t('{0}:', `${text[0]?.toUpperCase() ?? ''}${text.slice(1)}`)),
    list,
  );
}

function legend(result: RunResult, diverged: Set<number>): HTMLElement {
  const items: [string, string][] = [['ptc-bar-ok', l10n.t('ok')]];
  const calls = keptCalls(result);
  if (calls.some((c) => !c.ok)) items.push(['ptc-bar-failed', l10n.t('failed')]);
  if (calls.some((c: CallRecord) => c.replayed === true)) items.push(['ptc-bar-replayed', l10n.t('replayed')]);
  if (diverged.size > 0) items.push(['ptc-bar-diverged', l10n.t('diverged')]);
  if (calls.some((c) => c.schemaViolation !== undefined)) items.push(['ptc-bar-schema', l10n.t('schema violation')]);
  const box = el('div', { class: 'ptc-legend' });
  for (const [cls, text] of items)
    box.append(
      el('span', { class: 'ptc-legend-item' }, el('span', { class: `ptc-swatch ${cls}`, 'aria-hidden': 'true' }), text),
    );
  const replay = result.replay;
  if (replay !== undefined) {
    box.append(
      el(
        'span',
        { class: 'ptc-replay-summary' },
        l10n.t(
          'replay: {0} matched · {1} diverged · {2} unused',
          formatCount(replay.matched),
          formatCount(replay.divergedTotal ?? replay.diverged.length),
          formatCount(replay.unused),
        ),
      ),
    );
  }
  return box;
}

// "1 call" / "3 calls"
export function callsText(n: number): string {
  return n === 1 ? l10n.t('1 call') : l10n.t('{0} calls', formatCount(n));
}
