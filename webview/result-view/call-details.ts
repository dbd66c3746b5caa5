import * as l10n from '@vscode/l10n';
import type { JsonValue } from '../../runtime/protocol/json-value.js';
import type { CallRecord } from '../../runtime/protocol/run-result.js';
import { el } from '../dom/el.js';
import { copyButton } from '../dom/copy-button.js';
import { jsonTree } from '../dom/json-tree.js';
import { appendVisibleText } from '../dom/visible-text-dom.js';
import type { ViewContext } from '../dom/view-context.js';
import { callLabel } from '../shared/call-flags.js';
import { callImages } from './call-media.js';
import { formatDuration } from '../shared/format.js';
import { jsonText } from '../shared/json-text.js';

// One call's arguments and answer (value or error message) as JSON trees, with its timing and flags.
export function callDetails(ctx: ViewContext, call: CallRecord, diverged: boolean): HTMLElement {
  const flags = el('span', { class: 'ptc-flags' });
  flags.append(
    el(
      'span',
      { class: call.ok ? 'ptc-flag ptc-flag-ok' : 'ptc-flag ptc-flag-failed' },
      call.ok ? l10n.t('ok') : l10n.t('failed'),
    ),
  );
  if (call.replayed === true) flags.append(el('span', { class: 'ptc-flag ptc-flag-replayed' }, l10n.t('replayed')));
  if (diverged) flags.append(el('span', { class: 'ptc-flag ptc-flag-diverged' }, l10n.t('diverged')));
  const box = el(
    'div',
    { class: 'ptc-call', 'data-call-id': call.id },
    el(
      'p',
      { class: 'ptc-call-head' },
      el('code', {}, `#${call.id} ${callLabel(call)}`),
      ' ',
      flags,
      el(
        'span',
        { class: 'ptc-muted' },
        l10n.t(
          ' started at {0}, took {1}',
          formatDuration(call.startedAtMs, l10n.t),
          formatDuration(call.durationMs, l10n.t),
        ),
      ),
    ),
  );
  if (call.schemaViolation !== undefined) {
    const note = el(
      'p',
      { class: 'ptc-schema-violation', role: 'note' },
      l10n.t('⚠ The answer does not match the declared output schema: '),
    );
    appendVisibleText(note, call.schemaViolation);
    box.append(note);
  }
  box.append(
    jsonPart(
      ctx,
      { title: l10n.t('Arguments'), copy: l10n.t('Copy arguments'), tree: l10n.t('Arguments of call #{0}', call.id) },
      'ptc-call-args',
      call.args,
      2,
    ),
  );
  if (call.progressCount !== undefined && call.progress !== undefined && call.progress.length > 0)
    box.append(progressNote(call));
  if (call.ok) {
    if (call.value !== undefined) {
      const value = call.value;
      const images = callImages(value, call.id);
      if (images !== undefined)
        box.append(
          el(
            'div',
            { class: 'ptc-call-part ptc-call-media' },
            el('p', { class: 'ptc-label' }, l10n.t('Images')),
            images,
          ),
        );
      box.append(
        jsonPart(
          ctx,
          { title: l10n.t('Value'), copy: l10n.t('Copy value'), tree: l10n.t('Value of call #{0}', call.id) },
          'ptc-call-value',
          value,
          1,
        ),
      );
    }
  } else {
    const message = el('pre', { class: 'ptc-call-message', dir: 'auto' });
    appendVisibleText(message, call.message ?? l10n.t('(no message)'));
    box.append(
      part(
        ctx,
        { title: l10n.t('Error message'), copy: l10n.t('Copy error message'), what: 'text' },
        'ptc-call-error',
        message,
        () => call.message ?? '',
      ),
    );
    if (call.errorCode !== undefined || call.errorData !== undefined) {
      const details: JsonValue = {
        ...(call.errorCode === undefined ? {} : { code: call.errorCode }),
        ...(call.errorData === undefined ? {} : { data: call.errorData }),
      };
      box.append(
        jsonPart(
          ctx,
          {
            title: l10n.t('Error details'),
            copy: l10n.t('Copy error details'),
            tree: l10n.t('Error details of call #{0}', call.id),
          },
          'ptc-call-error-details',
          details,
          2,
        ),
      );
    }
  }
  return box;
}

// "Reported progress 4 times; last: 4 of 4, step 4" (the progress notifications the call sent while it ran).
export function progressSummary(call: CallRecord): string | undefined {
  const marks = call.progress ?? [];
  const last = marks[marks.length - 1];
  if (last === undefined) return undefined;
  const count = call.progressCount ?? marks.length;
  const amount = last.total === undefined ? `${last.progress}` : l10n.t('{0} of {1}', last.progress, last.total);
  const last_ = last.message === undefined ? amount : l10n.t('{0}, {1}', amount, last.message);
  return count === 1
    ? l10n.t('reported progress 1 time; last: {0}', last_)
    : l10n.t('reported progress {0} times; last: {1}', count, last_);
}

function progressNote(call: CallRecord): HTMLElement {
  const note = el('p', { class: 'ptc-call-progress' }, l10n.t('Progress: '));
  appendVisibleText(note, progressSummary(call) ?? '');
  return note;
}

// a labelled part of a call; `copy` names its copy button, `what` says whether it copies text or JSON
// Arguments, value and error details alike: a JSON tree (labelled for screen readers) copied as indented JSON text.
function jsonPart(
  ctx: ViewContext,
  label: { title: string; copy: string; tree: string },
  cls: string,
  value: JsonValue,
  expandDepth: number,
): HTMLElement {
  return part(
    ctx,
    { title: label.title, copy: label.copy, what: 'JSON' },
    cls,
    jsonTree(value, { ctx, label: label.tree, expandDepth }),
    () => jsonText(value, { indent: 2 }),
  );
}

function part(
  ctx: ViewContext,
  label: { title: string; copy: string; what: 'text' | 'JSON' },
  cls: string,
  content: Node,
  json: () => string,
): HTMLElement {
  return el(
    'div',
    { class: `ptc-call-part ${cls}` },
    el('p', { class: 'ptc-label' }, label.title, ' ', copyButton(ctx, label.copy, json, label.what)),
    content,
  );
}
