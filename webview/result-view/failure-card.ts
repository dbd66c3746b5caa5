import * as l10n from '@vscode/l10n';
import type { CallRecord, SourceLocation } from '../../runtime/protocol/run-result.js';
import type { ResultPayload } from '../protocol/result-payload.js';
import { el } from '../dom/el.js';
import { section } from '../dom/section.js';
import { appendVisibleText } from '../dom/visible-text-dom.js';
import { SELECT_CALL, type SelectCallDetail, type ViewContext } from '../dom/view-context.js';
import { callLabel, failingCall } from '../shared/call-flags.js';
import { explainFailure, failureTitle } from '../shared/failure-kinds.js';
import { formatCount, formatDuration } from '../shared/format.js';
import { splitFailureMessage, type StackFrame } from '../shared/stack-frames.js';
import { truncationOf, truncationText } from '../shared/truncation.js';
import { codeFrameView } from './code-frame-view.js';

// The failure card: kind badge + plain-words explanation, message, code frame, own stack frames, the failing call.
export function failureSection(ctx: ViewContext, payload: ResultPayload): HTMLElement | undefined {
  const error = payload.result.error;
  if (error === undefined) return undefined;
  const badge = el('span', { class: `ptc-kind ptc-kind-${error.kind}` }, error.kind);
  return section({
    ctx,
    key: 'failure',
    title: l10n.t('Failure'),
    meta: badge.cloneNode(true),
    tone: 'error',
    body: () => {
      const split = splitFailureMessage(error.message, payload.program);
      const location = bestLocation(error.location, split.frames);
      const fileName = payload.language === 'python' ? 'program.py' : 'program.ts';
      const call = failingCall(payload.result);
      const explanation = explainFailure(error, l10n.t, {
        timeoutMs: payload.timeoutMs,
        durationMs: payload.result.durationMs,
        failingCall: call === undefined ? undefined : callLabel(call),
      });
      const card = el(
        'div',
        { class: 'ptc-failure', 'data-kind': error.kind },
        el(
          'p',
          { class: 'ptc-failure-head' },
          badge,
          el('strong', {}, failureTitle(error.kind, l10n.t)),
          ' — ',
          explanation,
        ),
      );
      const message = el('pre', { class: 'ptc-failure-message', dir: 'auto' });
      appendVisibleText(message, split.headline === '' ? error.message : split.headline);
      card.append(message);
      const truncation = truncationOf(payload.result);
      if (truncation?.source === 'output-limit')
        card.append(
          el(
            'p',
            { class: 'ptc-note' },
            l10n.t('{0}; the return value was dropped.', truncationText(truncation, l10n.t)),
          ),
        );
      const frameSlot = el('div', { class: 'ptc-frame-slot' });
      card.append(frameSlot);
      const showFrame = (at: SourceLocation | undefined): void => {
        frameSlot.replaceChildren();
        if (at === undefined) return;
        const view = payload.program === undefined ? undefined : codeFrameView(payload.program, at, fileName);
        frameSlot.append(
          view ??
            el(
              'p',
              { class: 'ptc-muted' },
              l10n.t('at {0}', `${fileName}:${at.line}${at.column === undefined ? '' : `:${at.column}`}`),
            ),
        );
      };
      showFrame(location);
      if (split.frames.length > 0) card.append(stackList(ctx, split.frames, split.hiddenFrames, showFrame));
      if (call !== undefined) card.append(callNote(ctx, call));
      return card;
    },
  }).element;
}

// The compact view's failure, said once: an exception's own message with its code frame and the call it came from;
// any other kind in plain words with its numbers (deadline, cap, exit code). A cancelled run shows none.
export function failureBrief(ctx: ViewContext, payload: ResultPayload): HTMLElement | undefined {
  const error = payload.result.error;
  if (error === undefined || error.kind === 'abort') return undefined;
  const card = el('div', {
    class: 'ptc-part ptc-failure ptc-failure-brief',
    'data-part': 'failure',
    'data-kind': error.kind,
  });
  const call = failingCall(payload.result);
  if (error.kind === 'exception') {
    const split = splitFailureMessage(error.message, payload.program);
    const message = el('pre', { class: 'ptc-failure-message', dir: 'auto' });
    appendVisibleText(message, split.headline === '' ? error.message : split.headline);
    card.append(message);
    const location = bestLocation(error.location, split.frames);
    const fileName = payload.language === 'python' ? 'program.py' : 'program.ts';
    const view =
      location === undefined || payload.program === undefined
        ? undefined
        : codeFrameView(payload.program, location, fileName);
    if (view !== undefined) card.append(view);
  } else {
    const explanation = explainFailure(error, l10n.t, {
      timeoutMs: payload.timeoutMs,
      durationMs: payload.result.durationMs,
    });
    card.append(el('p', { class: 'ptc-failure-explained' }, l10n.t('{0}.', capitalize(explanation))));
  }
  if (call !== undefined) card.append(callNote(ctx, call));
  return card;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// The runtime's location, given a column from the matching program frame when it has none (Python).
function bestLocation(reported: SourceLocation | undefined, frames: StackFrame[]): SourceLocation | undefined {
  if (reported === undefined) return frames.find((f) => f.location !== undefined)?.location;
  if (reported.column !== undefined) return reported;
  const same = [...frames].reverse().find((f) => f.location?.line === reported.line && f.location.column !== undefined);
  return same?.location ?? reported;
}

function stackList(
  ctx: ViewContext,
  frames: StackFrame[],
  hidden: number,
  show: (at: SourceLocation | undefined) => void,
): HTMLElement {
  const list = el('ol', { class: 'ptc-stack', 'aria-label': l10n.t('Stack (program frames)') });
  for (const frame of frames) {
    const button = el(
      'button',
      { type: 'button', class: 'ptc-frame-button', disabled: frame.location === undefined },
      '',
    );
    appendVisibleText(button, frame.text);
    button.addEventListener(
      'click',
      () => {
        for (const b of Array.from(list.querySelectorAll('[aria-current]'))) b.removeAttribute('aria-current');
        button.setAttribute('aria-current', 'true');
        show(frame.location);
      },
      { signal: ctx.signal },
    );
    list.append(el('li', {}, button));
  }
  const wrap = el('div', { class: 'ptc-stack-wrap' }, el('p', { class: 'ptc-label' }, l10n.t('Stack')), list);
  if (hidden > 0)
    wrap.append(
      el(
        'p',
        { class: 'ptc-muted' },
        hidden === 1 ? l10n.t('1 runtime frame hidden') : l10n.t('{0} runtime frames hidden', formatCount(hidden)),
      ),
    );
  return wrap;
}

function callNote(ctx: ViewContext, call: CallRecord): HTMLElement {
  const show = el('button', { type: 'button', class: 'ptc-button ptc-link' }, l10n.t('Show in timeline'));
  show.addEventListener(
    'click',
    () => {
      ctx.bus.dispatchEvent(
        new CustomEvent<SelectCallDetail>(SELECT_CALL, { detail: { callId: call.id, focus: true } }),
      );
    },
    { signal: ctx.signal },
  );
  const text = el('span', {});
  const after = l10n.t('failed after {0}', formatDuration(call.durationMs, l10n.t));
  appendVisibleText(
    text,
    ` ${call.message === undefined ? after : l10n.t('{0}: {1}', after, call.message.split('\n')[0] ?? '')}`,
  );
  return el(
    'p',
    { class: 'ptc-failing-call', 'data-call-id': call.id },
    l10n.t('Raised by binding call '),
    el('code', {}, `#${call.id} ${callLabel(call)}`),
    text,
    ' ',
    show,
  );
}
