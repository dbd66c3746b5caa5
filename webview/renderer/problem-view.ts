import * as l10n from '@vscode/l10n';
import { el } from '../dom/el.js';
import { appendVisibleText } from '../dom/visible-text-dom.js';
import type { ViewContext } from '../dom/view-context.js';
import {
  problemSegments,
  type FileLocation,
  type ProblemAction,
  type ProblemPayload,
} from '../protocol/problem-payload.js';
import {
  RendererToHostMessageSchema,
  type HostToRendererMessage,
  type RendererToHostMessage,
} from '../protocol/renderer-messages.js';

type Ack = Extract<HostToRendererMessage, { type: 'ack' }>;

export interface ProblemViewOptions {
  ctx: ViewContext;
  payload: ProblemPayload;
  // absent without renderer messaging: file names stay text and the actions are not offered
  post: ((message: RendererToHostMessage) => void) | undefined;
  // registers a one-shot ack listener; returns the request id to send
  expectAck(onAck: (ack: Ack) => void): string;
}

// read at render time: the display language's bundle may arrive after the renderer loaded
const labels = (): Record<ProblemAction, { title: string; tip: string }> => ({
  'set-notebook-bindings': {
    title: l10n.t('Set Notebook Bindings…'),
    tip: l10n.t("Pick this notebook's bindings module (stored in the notebook, relative to it)"),
  },
  'show-log': { title: l10n.t('Show Log'), tip: l10n.t("Open PTC Playground's log") },
  'pick-model': { title: l10n.t('Pick Model'), tip: l10n.t('Choose the model task cells in this notebook ask') },
  'set-model-key': {
    title: l10n.t('Set Model API Key'),
    tip: l10n.t("Store the provider's API key in VS Code's secret storage"),
  },
  'model-settings': {
    title: l10n.t('Model Settings'),
    tip: l10n.t('Open the model settings (endpoint, name, options) where this window can edit them'),
  },
  'fake-model': {
    title: l10n.t('Try the Offline Fake Model'),
    tip: l10n.t('Use the scripted model from the examples: no key, nothing leaves this machine'),
  },
  'review-runtime-paths': {
    title: l10n.t('Review Interpreter Paths'),
    tip: l10n.t('Decide again which configured interpreter paths may run'),
  },
  'manage-trust': {
    title: l10n.t('Manage Workspace Trust'),
    tip: l10n.t('Trust this workspace so its cells can run'),
  },
});

// A cell that could not run: the reason (the files it names open at their line), the actions that fix it as buttons,
// and a closing paragraph. Buttons and file links message the extension host, which runs its own command.
export function problemView(options: ProblemViewOptions): HTMLElement {
  const { ctx, payload, post } = options;
  const status = el('span', { class: 'ptc-action-status', role: 'status' });
  const send = (control: HTMLButtonElement, message: RendererToHostMessage, what: string): void => {
    const checked = RendererToHostMessageSchema.safeParse(message);
    if (post === undefined || !checked.success) {
      status.dataset.ok = 'false';
      status.textContent = l10n.t('{0} is unavailable for this output', what);
      return;
    }
    control.disabled = true;
    status.dataset.ok = 'true';
    status.textContent = '';
    post(checked.data);
  };
  const request = (control: HTMLButtonElement, what: string): string =>
    options.expectAck((ack) => {
      control.disabled = false;
      status.dataset.ok = String(ack.ok);
      status.textContent = ack.message ?? (ack.ok ? '' : l10n.t('{0} failed', what));
    });

  const fileLink = (text: string, location: FileLocation): HTMLButtonElement => {
    const where = location.line === undefined ? location.path : `${location.path}:${location.line}`;
    const link = el('button', {
      type: 'button',
      class: 'ptc-button ptc-link',
      'data-open-file': location.path,
      title: l10n.t('Open {0}', where),
    });
    appendVisibleText(link, text);
    link.addEventListener(
      'click',
      () => send(link, { type: 'open-file', requestId: request(link, text), location }, text),
      { signal: ctx.signal },
    );
    return link;
  };
  const message = el('div', { class: 'ptc-problem-message' });
  for (const segment of problemSegments(payload.message, payload.links)) {
    if (segment.location === undefined || post === undefined) {
      appendVisibleText(message, segment.text);
      continue;
    }
    message.append(fileLink(segment.text, segment.location));
  }

  const LABELS = labels();
  const actions = post === undefined ? [] : (payload.actions ?? []);
  const buttons = actions.map((action, i) => {
    const { title, tip } = LABELS[action];
    const button = el(
      'button',
      {
        type: 'button',
        class: i === 0 ? 'ptc-button ptc-primary' : 'ptc-button',
        title: tip,
        'data-problem-action': action,
      },
      title,
    );
    button.addEventListener(
      'click',
      () => send(button, { type: 'problem-action', requestId: request(button, title), action }, title),
      { signal: ctx.signal },
    );
    return button;
  });

  const hasLinks = message.querySelector('[data-open-file]') !== null;
  return el(
    'div',
    { class: 'ptc-problem', 'data-severity': payload.severity ?? 'error' },
    message,
    buttons.length > 0 ? el('div', { class: 'ptc-problem-actions' }, ...buttons, status) : hasLinks ? status : null,
    payload.detail === undefined ? null : detailOf(payload.detail),
  );
}

function detailOf(text: string): HTMLElement {
  const detail = el('p', { class: 'ptc-problem-detail' });
  appendVisibleText(detail, text);
  return detail;
}
