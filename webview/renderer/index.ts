import * as l10n from '@vscode/l10n';
import type { ActivationFunction, OutputItem, RendererContext } from 'vscode-notebook-renderer';
import css from '../result-view/result-view.css';
import { el } from '../dom/el.js';
import { adoptSheet, createSheet } from '../dom/styles.js';
import { createViewContext } from '../dom/view-context.js';
import {
  parseHostToRenderer,
  RendererToHostMessageSchema,
  type HostToRendererMessage,
} from '../protocol/renderer-messages.js';
import { parseProblemPayload, PROBLEM_MIME } from '../protocol/problem-payload.js';
import { parseResultPayload } from '../protocol/result-payload.js';
import { renderResultView } from '../result-view/render-result-view.js';
import { applyL10nBundle } from '../l10n/apply-bundle.js';
import { hostActions, type HostActions } from './host-actions.js';
import { invalidOutputView } from './invalid-output.js';
import { problemView } from './problem-view.js';

type Ack = Extract<HostToRendererMessage, { type: 'ack' }>;

interface LiveOutput {
  controller: AbortController;
  shadow: ShadowRoot;
  actions: HostActions | undefined;
  // draws the output again (the display language's strings arrived after it was drawn in English)
  redraw: () => void;
}

// The notebook renderer (results and problems): one shadow root per output, cleared on every render; dispose aborts all
// listeners.
export const activate: ActivationFunction<unknown> = (context: RendererContext<unknown>) => {
  const sheet = createSheet(css);
  const outputs = new Map<string, LiveOutput>();
  const acks = new Map<string, (ack: Ack) => void>();
  let requests = 0;

  context.onDidReceiveMessage?.((data: unknown) => {
    const parsed = parseHostToRenderer(data);
    if (!parsed.ok) return;
    const message = parsed.message;
    if (message.type === 'ack') {
      acks.get(message.requestId)?.(message);
      acks.delete(message.requestId);
    } else if (message.type === 'l10n') {
      if (applyL10nBundle(message.bundle)) for (const output of Array.from(outputs.values())) output.redraw();
    } else {
      for (const output of outputs.values()) output.actions?.applyCellState(message);
    }
  });

  // English is drawn at once; the host answers with the display language's strings when it has any
  const askL10n = RendererToHostMessageSchema.safeParse({ type: 'l10n-request', requestId: 'l10n' });
  if (askL10n.success) context.postMessage?.(askL10n.data);

  const dispose = (id: string): void => {
    const output = outputs.get(id);
    if (output === undefined) return;
    output.controller.abort();
    output.shadow.replaceChildren();
    outputs.delete(id);
    for (const key of Array.from(acks.keys())) if (key.startsWith(`${id}#`)) acks.delete(key);
  };

  const api = {
    renderOutputItem(item: OutputItem, element: HTMLElement, signal?: AbortSignal) {
      dispose(item.id);
      const controller = new AbortController();
      signal?.addEventListener('abort', () => controller.abort(), { once: true, signal: controller.signal });
      const shadow = element.shadowRoot ?? element.attachShadow({ mode: 'open' });
      shadow.replaceChildren();
      adoptSheet(shadow, sheet);
      const live = el('div', { class: 'ptc-sr-only', 'aria-live': 'polite' });
      const ctx = createViewContext(shadow, controller.signal, live);
      const record: LiveOutput = {
        controller,
        shadow,
        actions: undefined,
        redraw: () => {
          if (signal?.aborted !== true) api.renderOutputItem(item, element, signal);
        },
      };
      outputs.set(item.id, record);
      let data: unknown;
      try {
        data = item.json();
      } catch (error) {
        shadow.append(
          live,
          invalidOutputView(
            l10n.t('The output is not valid JSON: {0}', String((error as Error).message ?? error)),
            safeText(item),
          ),
        );
        return;
      }
      const expectAck = (onAck: (ack: Ack) => void): string => {
        requests += 1;
        const requestId = `${item.id}#${requests}`.slice(-64);
        acks.set(requestId, onAck);
        return requestId;
      };
      if (item.mime === PROBLEM_MIME) {
        const problem = parseProblemPayload(data);
        shadow.append(
          live,
          problem.ok
            ? problemView({ ctx, payload: problem.payload, post: context.postMessage?.bind(context), expectAck })
            : invalidOutputView(
                l10n.t('The output does not match the PTC problem format:\n{0}', problem.message),
                safeText(item),
              ),
        );
        return;
      }
      const parsed = parseResultPayload(data);
      if (!parsed.ok) {
        shadow.append(
          live,
          invalidOutputView(
            l10n.t('The output does not match the PTC result format:\n{0}', parsed.message),
            safeText(item),
          ),
        );
        return;
      }
      record.actions = hostActions({
        ctx,
        context,
        outputId: item.id,
        cellId: parsed.payload.cellId,
        hasCassette: parsed.payload.hasCassette,
        expectAck,
      });
      shadow.append(
        live,
        renderResultView({
          ctx,
          payload: parsed.payload,
          actions: record.actions?.elements ?? [],
          expectationActions: record.actions === undefined ? [] : [record.actions.accept],
          view: 'compact',
          toggle: true,
        }),
      );
    },
    disposeOutputItem(id?: string) {
      if (id === undefined) for (const key of Array.from(outputs.keys())) dispose(key);
      else dispose(id);
    },
    // how many outputs hold live listeners (tests assert disposal releases them)
    activeOutputCount: () => outputs.size,
  };
  return api;
};

function safeText(item: OutputItem): string {
  try {
    return item.text();
  } catch {
    return '';
  }
}
