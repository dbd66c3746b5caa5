import * as l10n from '@vscode/l10n';
import { el } from '../dom/el.js';
import { createViewContext, type ViewContext } from '../dom/view-context.js';
import {
  parseHostToInspector,
  type HostToInspectorMessage,
  type InspectorRun,
  type InspectorToHostMessage,
} from '../protocol/inspector-messages.js';
import { InspectorToHostMessageSchema } from '../protocol/inspector-messages.js';
import {
  MAX_KEPT_RUNS,
  parseInspectorState,
  persistedInspectorState,
  type InspectorState,
  type InspectorTab,
} from '../protocol/inspector-state.js';
import { renderResultView } from '../result-view/render-result-view.js';
import { timelineSection } from '../result-view/timeline.js';
import { callTotal } from '../shared/call-flags.js';
import { diffView } from './diff-view.js';
import { modelViewPanel } from './model-view-panel.js';
import { runPicker } from './run-picker.js';
import { tabList } from './tabs.js';
import { thenNowView } from './then-now-view.js';
import { appendVisibleText } from '../dom/visible-text-dom.js';
import type { WebviewApi } from './vscode-api.js';

export interface InspectorApp {
  receive(data: unknown): void;
  state(): InspectorState;
}

// The run inspector page: state restored from getState, replaced by host messages, persisted with setState.
export function createInspectorApp(root: HTMLElement, api: WebviewApi): InspectorApp {
  let state = parseInspectorState(api.getState());
  let banner: string | undefined;
  let view: AbortController | undefined;
  const live = el('div', { class: 'ptc-sr-only', 'aria-live': 'polite' });

  const post = (message: InspectorToHostMessage): void => {
    const checked = InspectorToHostMessageSchema.safeParse(message);
    if (checked.success) api.postMessage(checked.data);
  };
  const update = (next: InspectorState): void => {
    state = withDiffDefaults(next);
    api.setState(persistedInspectorState(state));
    render();
  };

  const render = (): void => {
    view?.abort();
    view = new AbortController();
    const ctx = createViewContext(document, view.signal, live);
    const selected = state.runs.find((r) => r.id === state.selectedId) ?? state.runs[state.runs.length - 1];
    const header = el(
      'header',
      { class: 'ptc-inspector-header' },
      el('h1', {}, l10n.t('Run inspector')),
      // the Diff tab has its own two pickers; the run picker there would only confuse
      state.tab === 'diff'
        ? null
        : runPicker({
            id: 'ptc-run-picker',
            label: l10n.t('Run'),
            runs: state.runs,
            selectedId: selected?.id,
            signal: view.signal,
            onChange: (id) => update({ ...state, selectedId: id }),
          }),
      headerActions(ctx, selected, post),
    );
    const panelId = 'ptc-tab-panel';
    const panel = el('section', {
      id: panelId,
      role: 'tabpanel',
      class: 'ptc-tab-panel',
      'aria-labelledby': `ptc-tab-${state.tab}`,
      'data-tab': state.tab,
    });
    panel.append(panelBody(ctx, state, selected, (patch) => update({ ...state, ...patch })));
    root.replaceChildren(live, header);
    if (banner !== undefined) {
      root.append(
        bannerView(
          banner,
          () => {
            banner = undefined;
            render();
          },
          view.signal,
        ),
      );
    }
    root.append(
      tabList({
        selected: state.tab,
        tabs: visibleTabs(state),
        panelId,
        signal: view.signal,
        onSelect: (tab) => selectTab(tab),
      }),
      panel,
    );
  };

  const selectTab = (tab: InspectorTab): void => {
    update({ ...state, tab });
    (document.getElementById(`ptc-tab-${tab}`) as HTMLElement | null)?.focus();
  };

  const apply = (message: HostToInspectorMessage): void => {
    if (message.type === 'error') {
      banner = message.message;
      render();
    } else if (message.type === 'load') {
      const runs = message.runs.slice(-MAX_KEPT_RUNS);
      const selectedId = runs.some((r) => r.id === message.selectedId) ? message.selectedId : runs[runs.length - 1]?.id;
      update({
        ...state,
        runs,
        selectedId,
        diffLeftId: undefined,
        diffRightId: undefined,
        ...(message.tab === undefined ? {} : { tab: message.tab }),
      });
    } else {
      const runs = [...state.runs.filter((r) => r.id !== message.run.id), message.run].slice(-MAX_KEPT_RUNS);
      const selectedId = message.select === true ? message.run.id : state.selectedId;
      // a new run becomes the right side of the diff, the previous right moves left
      const diff =
        message.select === true
          ? { diffLeftId: state.diffRightId ?? state.selectedId, diffRightId: message.run.id }
          : {};
      update({ ...state, runs, selectedId, ...diff });
    }
  };

  render();
  post({ type: 'ready', restoredRunIds: state.runs.map((r) => r.id) });
  return {
    receive(data) {
      const parsed = parseHostToInspector(data);
      if (parsed.ok) apply(parsed.message);
      // only our own message types are reported; anything else on the window is not for us
      else if (isOurType(data)) {
        banner = l10n.t('The extension sent a message the inspector cannot read: {0}', parsed.error);
        render();
      }
    },
    state: () => state,
  };
}

function withDiffDefaults(state: InspectorState): InspectorState {
  const ids = new Set(state.runs.map((r) => r.id));
  const last = state.runs[state.runs.length - 1]?.id;
  const previous = state.runs[state.runs.length - 2]?.id;
  const diffRightId = state.diffRightId !== undefined && ids.has(state.diffRightId) ? state.diffRightId : last;
  const fallbackLeft = previous ?? last;
  const diffLeftId = state.diffLeftId !== undefined && ids.has(state.diffLeftId) ? state.diffLeftId : fallbackLeft;
  return { ...state, diffLeftId, diffRightId };
}

function headerActions(
  ctx: ViewContext,
  selected: InspectorRun | undefined,
  post: (m: InspectorToHostMessage) => void,
): HTMLElement {
  const box = el('span', { class: 'ptc-header-actions' });
  const cellId = selected?.payload.cellId;
  if (selected !== undefined && selected.source === 'cell' && cellId !== undefined) {
    const rerun = el('button', { type: 'button', class: 'ptc-button', 'data-action': 'rerun' }, l10n.t('Re-run cell'));
    rerun.addEventListener('click', () => post({ type: 'rerun', cellId }), { signal: ctx.signal });
    box.append(rerun);
    if (selected.payload.result.calls.length > 0) box.append(forkButton(ctx, cellId, post));
  }
  const open = el(
    'button',
    { type: 'button', class: 'ptc-button', 'data-action': 'open-cassette' },
    l10n.t('Open cassette…'),
  );
  open.addEventListener('click', () => post({ type: 'open-cassette' }), { signal: ctx.signal });
  box.append(open);
  return box;
}

// Run from here: follows the call picked in the timeline (a bar's data-call-id), else the host asks which call.
function forkButton(ctx: ViewContext, cellId: string, post: (m: InspectorToHostMessage) => void): HTMLElement {
  let callId: number | undefined;
  const button = el('button', { type: 'button', class: 'ptc-button', 'data-action': 'fork' }, l10n.t('Run from call…'));
  document.addEventListener(
    'click',
    (event) => {
      const bar = (event.target as Element | null)?.closest?.('[data-call-id]');
      const id = Number(bar?.getAttribute('data-call-id'));
      if (bar === null || bar === undefined || !Number.isSafeInteger(id) || id < 1) return;
      callId = id;
      button.textContent = l10n.t('Run from call {0}…', id);
    },
    { signal: ctx.signal },
  );
  button.addEventListener('click', () => post({ type: 'fork', cellId, ...(callId === undefined ? {} : { callId }) }), {
    signal: ctx.signal,
  });
  return button;
}

function panelBody(
  ctx: ViewContext,
  state: InspectorState,
  selected: InspectorRun | undefined,
  patch: (p: Partial<InspectorState>) => void,
): Node {
  if (selected === undefined) {
    return el(
      'p',
      { class: 'ptc-empty' },
      l10n.t('No run to show yet. Run a cell and choose "Open in inspector", or open a cassette file.'),
    );
  }
  if (state.tab === 'then') return thenTab(ctx, state, selected);
  if (selected.source === 'cassette' && state.tab !== 'diff') return cassetteView(ctx, selected, state.tab);
  if (selected.source === 'transcript' && state.tab !== 'diff') return transcriptView(ctx, selected);
  if (state.tab === 'run')
    return el('div', { class: 'ptc-root' }, renderResultView({ ctx, payload: selected.payload, valueDepth: 2 }));
  if (state.tab === 'model') return modelViewPanel(ctx, selected.payload.result);
  const left = state.runs.find((r) => r.id === state.diffLeftId);
  const right = state.runs.find((r) => r.id === state.diffRightId);
  const pickers = el(
    'div',
    { class: 'ptc-diff-pickers' },
    runPicker({
      id: 'ptc-diff-left',
      label: l10n.t('Left'),
      runs: state.runs,
      selectedId: left?.id,
      signal: ctx.signal,
      onChange: (id) => patch({ diffLeftId: id }),
    }),
    swapButton(ctx, () => patch({ diffLeftId: state.diffRightId, diffRightId: state.diffLeftId })),
    runPicker({
      id: 'ptc-diff-right',
      label: l10n.t('Right'),
      runs: state.runs,
      selectedId: right?.id,
      signal: ctx.signal,
      onChange: (id) => patch({ diffRightId: id }),
    }),
  );
  if (state.runs.length < 2 || left === undefined || right === undefined) {
    return el(
      'div',
      {},
      pickers,
      el(
        'p',
        { class: 'ptc-empty' },
        l10n.t('Diff needs two runs: run the cell again (e.g. live, then replay) or open a cassette.'),
      ),
    );
  }
  if (left.id === right.id)
    return el('div', {}, pickers, el('p', { class: 'ptc-empty' }, l10n.t('Pick two different runs to compare.')));
  return el('div', {}, pickers, diffView(ctx, left, right));
}

// A cassette holds binding calls only: no program ran, so there is no output, value, sandbox or model text.
function cassetteView(ctx: ViewContext, run: InspectorRun, tab: InspectorTab): HTMLElement {
  const calls = callTotal(run.payload.result);
  const note = el(
    'p',
    { class: 'ptc-cassette-note' },
    tab === 'model'
      ? l10n.t(
          'A cassette is a recording of binding calls, not a run: nothing was returned to a model. Pick a cell run to see its text.',
        )
      : l10n.t(
          'A cassette records binding calls only ({0}, in recorded order; start times are not kept). Use Diff to compare it with a run.',
          calls === 1 ? l10n.t('1 call') : l10n.t('{0} calls', calls),
        ),
  );
  const timeline = tab === 'run' ? timelineSection(ctx, run.payload.result) : undefined;
  return el(
    'div',
    { class: 'ptc-root ptc-cassette', 'data-source': 'cassette' },
    note,
    timeline ?? (tab === 'run' ? el('p', { class: 'ptc-empty' }, l10n.t('The cassette holds no calls.')) : null),
  );
}

// The Then tab is offered once a transcript run is known (or when it is the open tab, so it never vanishes under the
// user).
function visibleTabs(state: InspectorState): InspectorTab[] {
  const base: InspectorTab[] = ['run', 'model', 'diff'];
  return state.tab === 'then' || state.runs.some((r) => r.source === 'transcript') ? [...base, 'then'] : base;
}

// "now" is the selected cell run, else the newest one; "then" is the transcript's record.
function thenTab(ctx: ViewContext, state: InspectorState, selected: InspectorRun): Node {
  const then = [...state.runs].reverse().find((r) => r.source === 'transcript');
  if (then === undefined)
    return el(
      'p',
      { class: 'ptc-empty' },
      l10n.t(
        'Then vs now compares a run of an imported cell with its transcript: open the inspector on a cell made by Import Transcript…',
      ),
    );
  const now = selected.source === 'cell' ? selected : [...state.runs].reverse().find((r) => r.source === 'cell');
  return thenNowView(ctx, then, now);
}

// A transcript's record is not a run here: its output and calls as recorded, with where it came from.
function transcriptView(ctx: ViewContext, run: InspectorRun): HTMLElement {
  const info = run.transcript;
  const result = run.payload.result;
  const note = el(
    'p',
    { class: 'ptc-cassette-note' },
    [
      info === undefined
        ? l10n.t('What the program did in the transcript: {0} in recorded order.', toolCalls(result.calls.length))
        : l10n.t(
            'What the program did in the transcript ({0}, {1}): {2} in recorded order.',
            info.origin,
            info.format,
            toolCalls(result.calls.length),
          ),
      result.error === undefined ? '' : l10n.t('Then it failed ({0}).', result.error.kind),
      l10n.t('Use Then vs now to compare it with a run here.'),
    ]
      .filter((part) => part !== '')
      .join(' '),
  );
  const printed = el('pre', {
    class: 'ptc-model-text',
    tabindex: 0,
    'aria-label': l10n.t('Output recorded in the transcript'),
  });
  appendVisibleText(printed, result.logs.join('\n'));
  return el(
    'div',
    { class: 'ptc-root ptc-cassette', 'data-source': 'transcript' },
    note,
    result.logs.length > 0 ? printed : null,
    timelineSection(ctx, result),
  );
}

function swapButton(ctx: ViewContext, swap: () => void): HTMLElement {
  const button = el(
    'button',
    {
      type: 'button',
      class: 'ptc-button ptc-icon-button',
      title: l10n.t('Swap left and right'),
      'aria-label': l10n.t('Swap left and right'),
    },
    '⇄',
  );
  button.addEventListener('click', swap, { signal: ctx.signal });
  return button;
}

function bannerView(message: string, dismiss: () => void, signal: AbortSignal): HTMLElement {
  const close = el(
    'button',
    { type: 'button', class: 'ptc-button', 'aria-label': l10n.t('Dismiss') },
    l10n.t('Dismiss'),
  );
  close.addEventListener('click', dismiss, { signal });
  const text = el('span', {});
  text.textContent = message;
  return el('div', { class: 'ptc-banner', role: 'alert' }, text, ' ', close);
}

function isOurType(data: unknown): boolean {
  const type = data !== null && typeof data === 'object' ? (data as { type?: unknown }).type : undefined;
  return type === 'load' || type === 'add-run' || type === 'error' || type === 'json';
}

const toolCalls = (count: number): string => (count === 1 ? l10n.t('1 tool call') : l10n.t('{0} tool calls', count));
