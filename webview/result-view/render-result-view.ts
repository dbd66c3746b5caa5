import type { ResultPayload } from '../protocol/result-payload.js';
import { el, type Child } from '../dom/el.js';
import type { ViewContext } from '../dom/view-context.js';
import { expectationSection } from './expectation-view.js';
import { failureSection } from './failure-card.js';
import { footerSection } from './footer.js';
import { printedOutputSection } from './printed-output.js';
import { returnValueSection } from './return-value.js';
import { summaryBar } from './summary-bar.js';
import { timelineSection } from './timeline.js';

export interface ResultViewOptions {
  ctx: ViewContext;
  payload: ResultPayload;
  actions?: Child[];
  // next to the expectation mismatch (Accept as Expected, renderer only)
  expectationActions?: Child[];
  // the inspector opens the value tree one level deeper
  valueDepth?: number;
}

// The whole picture of one run, shared by the notebook renderer and the inspector.
export function renderResultView(options: ResultViewOptions): HTMLElement {
  const { ctx, payload } = options;
  const result = payload.result;
  return el(
    'div',
    { class: 'ptc-result', 'data-outcome': result.error === undefined ? 'success' : 'failure', 'data-kind': result.error?.kind },
    summaryBar(result, options.actions ?? []),
    expectationSection(ctx, payload.expectation, options.expectationActions),
    printedOutputSection(ctx, result),
    returnValueSection(ctx, result, options.valueDepth ?? 1),
    failureSection(ctx, payload),
    timelineSection(ctx, result),
    footerSection(ctx, result),
  );
}
