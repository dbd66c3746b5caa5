import * as l10n from '@vscode/l10n';
import type { ResultPayload } from '../protocol/result-payload.js';
import { el, type Child } from '../dom/el.js';
import { SELECT_CALL, type SelectCallDetail, type ViewContext } from '../dom/view-context.js';
import { expectationSection } from './expectation-view.js';
import { failureBrief, failureSection } from './failure-card.js';
import { footerSection } from './footer.js';
import { printedLines, printedOutputSection } from './printed-output.js';
import { returnValueSection, valueBlock } from './return-value.js';
import { outcomeOf, statusLine } from './status-line.js';
import { timelineSection } from './timeline.js';

export type ResultViewMode = 'compact' | 'full';

export interface ResultViewOptions {
  ctx: ViewContext;
  payload: ResultPayload;
  actions?: Child[];
  // next to the expectation mismatch (Accept as Expected, renderer only)
  expectationActions?: Child[];
  // the inspector opens the value tree one level deeper
  valueDepth?: number;
  // compact (the notebook's default): printed lines, value, failure, one status line; full: every section
  view?: ResultViewMode;
  // renders a "Details" / "Compact" button that switches views in place (the notebook renderer)
  toggle?: boolean;
}

// One part of a view: undefined when it has nothing to say for this run.
type Part = (options: Required<Pick<ResultViewOptions, 'ctx' | 'payload' | 'valueDepth'>>) => HTMLElement | undefined;

// The compact view, Jupyter-like: what the program printed and returned first, then its failure said once.
// New kinds of result content add a part here and to FULL_PARTS.
const COMPACT_PARTS: readonly Part[] = [
  ({ ctx, payload }) => printedLines(ctx, payload.result),
  ({ ctx, payload }) => valueBlock(ctx, payload.result),
  ({ ctx, payload }) => failureBrief(ctx, payload),
];

// The full view: every section, each collapsible, below the status line.
const FULL_PARTS: readonly Part[] = [
  ({ ctx, payload }) => printedOutputSection(ctx, payload.result),
  ({ ctx, payload, valueDepth }) => returnValueSection(ctx, payload.result, valueDepth),
  ({ ctx, payload }) => failureSection(ctx, payload),
  ({ ctx, payload }) => timelineSection(ctx, payload.result),
  ({ ctx, payload }) => footerSection(ctx, payload),
];

// A result kept within the output budget says what it left out, once, above everything else.
function budgetNote(payload: ResultPayload): HTMLElement | undefined {
  if (payload.note === undefined) return undefined;
  return el('p', { class: 'ptc-budget-note', role: 'note', 'data-part': 'note' }, payload.note);
}

// The picture of one run, shared by the notebook renderer (compact by default, full one click away) and the
// inspector (full).
export function renderResultView(options: ResultViewOptions): HTMLElement {
  const { ctx, payload } = options;
  const valueDepth = options.valueDepth ?? 1;
  const root = el('div', {
    class: 'ptc-result',
    'data-outcome': outcomeOf(payload.result),
    'data-kind': payload.result.error?.kind,
  });
  let drawn: AbortController | undefined;
  const draw = (view: ResultViewMode, focusToggle: boolean): void => {
    // each drawing's listeners end with it (or with the output), so switching views back and forth leaks none
    drawn?.abort();
    const own = new AbortController();
    drawn = own;
    ctx.signal.addEventListener('abort', () => own.abort(), { once: true, signal: own.signal });
    const viewCtx: ViewContext = { ...ctx, signal: own.signal };
    root.dataset.view = view;
    const toggle =
      options.toggle === true
        ? viewToggle(viewCtx, view, () => draw(view === 'compact' ? 'full' : 'compact', true))
        : undefined;
    const parts = (view === 'compact' ? COMPACT_PARTS : FULL_PARTS).map((part) =>
      part({ ctx: viewCtx, payload, valueDepth }),
    );
    const status = statusLine(payload, [toggle, ...(options.actions ?? [])]);
    // a run that differs from the cell's expectation says so first, in both views (ptc test / Accept as Expected)
    const expectation =
      expectationSection(
        viewCtx,
        payload.expectation,
        options.expectationActions,
        payload.result.error !== undefined,
      ) ?? undefined;
    // the full view reads top-down like a report; the compact one puts the program's output first, like Jupyter
    const body = view === 'compact' ? [...parts, status] : [status, ...parts];
    root.replaceChildren(...[budgetNote(payload), expectation, ...body].filter((n) => n !== undefined));
    if (focusToggle) toggle?.focus();
  };
  draw(options.view ?? 'full', false);
  // the compact view has no timeline: a "Show in timeline" link opens the full view, then selects the call
  ctx.bus.addEventListener(
    SELECT_CALL,
    (event) => {
      if (root.dataset.view !== 'compact') return;
      const detail = (event as CustomEvent<SelectCallDetail>).detail;
      draw('full', false);
      ctx.later(() => ctx.bus.dispatchEvent(new CustomEvent<SelectCallDetail>(SELECT_CALL, { detail })));
    },
    { signal: ctx.signal },
  );
  return root;
}

function viewToggle(ctx: ViewContext, view: ResultViewMode, onClick: () => void): HTMLButtonElement {
  const compact = view === 'compact';
  const button = el(
    'button',
    {
      type: 'button',
      class: 'ptc-button ptc-link ptc-view-toggle',
      'data-toggle': 'details',
      'aria-expanded': String(!compact),
      title: compact
        ? l10n.t('Show every section: printed output, value, failure, binding calls, run facts')
        : l10n.t('Show only the output, value and status'),
    },
    compact ? l10n.t('Details') : l10n.t('Compact'),
  );
  button.addEventListener('click', onClick, { signal: ctx.signal });
  return button;
}
