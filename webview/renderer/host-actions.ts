import type { RendererContext } from 'vscode-notebook-renderer';
import { el } from '../dom/el.js';
import type { ViewContext } from '../dom/view-context.js';
import { RendererToHostMessageSchema, type HostToRendererMessage, type RendererAction, type RendererToHostMessage } from '../protocol/renderer-messages.js';

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
type ButtonAction = Exclude<RendererAction, 'cell-state-request'>;

const LABELS: Record<ButtonAction, string> = {
  'open-inspector': 'Open in inspector',
  rerun: 'Re-run',
  record: 'Record',
  replay: 'Replay',
  accept: 'Accept as Expected',
};

// Buttons that message the extension host; absent without messaging or in an untrusted workspace.
export function hostActions(options: HostActionOptions): HostActions | undefined {
  const { ctx, context } = options;
  const post = context.postMessage?.bind(context);
  if (post === undefined || !context.workspace.isTrusted) return undefined;
  const status = el('span', { class: 'ptc-action-status', role: 'status' });
  const buttons = new Map<ButtonAction, HTMLButtonElement>();
  const make = (action: ButtonAction, title: string): HTMLButtonElement => {
    const needsCell = action !== 'open-inspector';
    const button = el(
      'button',
      {
        type: 'button',
        class: action === 'open-inspector' ? 'ptc-button ptc-primary' : 'ptc-button',
        title: needsCell && options.cellId === undefined ? `${title} (this output is not linked to a cell)` : title,
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
          status.textContent = ack.message ?? (ack.ok ? '' : `${LABELS[action]} failed`);
        });
        const message = buildMessage(action, requestId, options);
        const checked = message === undefined ? undefined : RendererToHostMessageSchema.safeParse(message);
        if (checked === undefined || !checked.success) {
          status.dataset.ok = 'false';
          status.textContent = `${LABELS[action]} is unavailable for this output`;
          return;
        }
        button.disabled = true;
        status.dataset.ok = 'true';
        status.textContent = `${LABELS[action]}…`;
        post(checked.data);
      },
      { signal: ctx.signal },
    );
    buttons.set(action, button);
    return button;
  };
  const replayTitle = (has: boolean): string =>
    has ? 'Run this cell against its recorded cassette (no handler runs)' : 'No cassette recorded for this cell yet: use Record first';
  const elements = [
    make('open-inspector', 'Open this run in the run inspector (full result, what the model sees, diff)'),
    make('rerun', 'Run this cell again'),
    make('record', 'Run this cell with live handlers and record its binding calls to a cassette'),
    make('replay', 'Run this cell against its recorded cassette (no handler runs)'),
    status,
  ];
  const accept = make('accept', "Store this run as the cell's expectation (and its binding answers as the cell's cassette)");
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
      if (record !== undefined) record.textContent = state.recording === true ? 'Recording…' : LABELS.record;
    },
  };
}

function buildMessage(action: ButtonAction, requestId: string, options: HostActionOptions): RendererToHostMessage | undefined {
  if (action === 'open-inspector') {
    return options.cellId === undefined
      ? { type: action, requestId, outputId: options.outputId }
      : { type: action, requestId, outputId: options.outputId, cellId: options.cellId };
  }
  if (options.cellId === undefined) return undefined;
  return { type: action, requestId, cellId: options.cellId };
}
