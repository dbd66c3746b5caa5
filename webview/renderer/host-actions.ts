import * as l10n from '@vscode/l10n';
import type { RendererContext } from 'vscode-notebook-renderer';
import { el } from '../dom/el.js';
import type { ViewContext } from '../dom/view-context.js';
import {
  RendererToHostMessageSchema,
  type HostToRendererMessage,
  type RendererAction,
  type RendererToHostMessage,
} from '../protocol/renderer-messages.js';

type CellState = Extract<HostToRendererMessage, { type: 'cell-state' }>;
type Ack = Extract<HostToRendererMessage, { type: 'ack' }>;

export interface HostActions {
  elements: HTMLElement[];
  // Accept as Expected, shown with an expectation mismatch
  accept: HTMLElement;
  applyCellState(state: CellState): void;
}

export interface HostActionOptions {
  ctx: ViewContext;
  context: RendererContext<unknown>;
  outputId: string;
  cellId: string | undefined;
  // what the output said when it was written; Replay stays disabled until a cassette is known to exist
  hasCassette: boolean | undefined;
  // registers a one-shot ack listener; returns the request id to send
  expectAck(onAck: (ack: Ack) => void): string;
}

// the actions a button asks for (a cell-state request is sent on its own)
type ButtonAction = Exclude<RendererAction, 'cell-state-request' | 'l10n-request' | 'problem-action' | 'open-file'>;

// read at render time: the display language's bundle may arrive after the renderer loaded
const labels = (): Record<ButtonAction, string> => ({
  'open-inspector': l10n.t('Open in inspector'),
  rerun: l10n.t('Re-run'),
  record: l10n.t('Record'),
  replay: l10n.t('Replay'),
  accept: l10n.t('Accept as Expected'),
});

// Buttons that message the extension host; absent without messaging or in an untrusted workspace.
export function hostActions(options: HostActionOptions): HostActions | undefined {
  const { ctx, context } = options;
  const post = context.postMessage?.bind(context);
  if (post === undefined || !context.workspace.isTrusted) return undefined;
  const status = el('span', { class: 'ptc-action-status', role: 'status' });
  const buttons = new Map<ButtonAction, HTMLButtonElement>();
  const LABELS = labels();
  const make = (action: ButtonAction, title: string): HTMLButtonElement => {
    const needsCell = action !== 'open-inspector';
    const button = el(
      'button',
      {
        type: 'button',
        class: action === 'open-inspector' ? 'ptc-button ptc-primary' : 'ptc-button',
        title:
          needsCell && options.cellId === undefined
            ? l10n.t('{0} (this output is not linked to a cell)', title)
            : title,
        disabled: needsCell && options.cellId === undefined,
        'data-action': action,
      },
      LABELS[action],
    );
    button.addEventListener(
      'click',
      () => {
        const requestId = options.expectAck((ack) => {
          button.disabled = false;
          status.dataset.ok = String(ack.ok);
          status.textContent = ack.message ?? (ack.ok ? '' : l10n.t('{0} failed', LABELS[action]));
        });
        const message = buildMessage(action, requestId, options);
        const checked = message === undefined ? undefined : RendererToHostMessageSchema.safeParse(message);
        if (checked === undefined || !checked.success) {
          status.dataset.ok = 'false';
          status.textContent = l10n.t('{0} is unavailable for this output', LABELS[action]);
          return;
        }
        button.disabled = true;
        status.dataset.ok = 'true';
        status.textContent = l10n.t('{0}…', LABELS[action]);
        post(checked.data);
      },
      { signal: ctx.signal },
    );
    buttons.set(action, button);
    return button;
  };
  const replayTitle = (has: boolean): string =>
    has
      ? l10n.t('Run this cell against its recorded cassette (no handler runs)')
      : l10n.t('No cassette recorded for this cell yet: use Record first');
  const elements = [
    make('open-inspector', l10n.t('Open this run in the run inspector (full result, what the model sees, diff)')),
    make('rerun', l10n.t('Run this cell again')),
    make('record', l10n.t('Run this cell with live handlers and record its binding calls to a cassette')),
    make('replay', l10n.t('Run this cell against its recorded cassette (no handler runs)')),
    status,
  ];
  const accept = make(
    'accept',
    l10n.t("Store this run as the cell's expectation (and its binding answers as the cell's cassette)"),
  );
  const replay = buttons.get('replay');
  if (replay !== undefined && options.cellId !== undefined) {
    replay.disabled = options.hasCassette !== true;
    replay.title = replayTitle(options.hasCassette === true);
    // a saved output cannot know whether the cassette is still there: ask, and the host answers with cell-state
    const ask = RendererToHostMessageSchema.safeParse({
      type: 'cell-state-request',
      requestId: `${options.outputId}#state`.slice(-64),
      cellId: options.cellId,
    });
    if (ask.success) post(ask.data);
  }
  return {
    elements,
    accept,
    applyCellState(state) {
      if (state.cellId !== options.cellId) return;
      const replay = buttons.get('replay');
      if (replay !== undefined) {
        replay.disabled = !state.hasCassette || state.running;
        replay.title = replayTitle(state.hasCassette);
      }
      for (const action of ['rerun', 'record', 'accept'] as const) {
        const b = buttons.get(action);
        if (b !== undefined) b.disabled = state.running;
      }
      const record = buttons.get('record');
      if (record !== undefined) record.textContent = state.recording === true ? l10n.t('Recording…') : LABELS.record;
    },
  };
}

function buildMessage(
  action: ButtonAction,
  requestId: string,
  options: HostActionOptions,
): RendererToHostMessage | undefined {
  if (action === 'open-inspector') {
    return options.cellId === undefined
      ? { type: action, requestId, outputId: options.outputId }
      : { type: action, requestId, outputId: options.outputId, cellId: options.cellId };
  }
  if (options.cellId === undefined) return undefined;
  return { type: action, requestId, cellId: options.cellId };
}
