import type { CallRecord } from '../../runtime/protocol/run-result.js';
import { el } from '../dom/el.js';
import { copyButton } from '../dom/copy-button.js';
import { jsonTree } from '../dom/json-tree.js';
import { appendVisibleText } from '../dom/visible-text-dom.js';
import type { ViewContext } from '../dom/view-context.js';
import { callLabel } from '../shared/call-flags.js';
import { formatDuration } from '../shared/format.js';
import { jsonText } from '../shared/json-text.js';

// One call's arguments and answer (value or error message) as JSON trees, with its timing and flags.
export function callDetails(ctx: ViewContext, call: CallRecord, diverged: boolean): HTMLElement {
  const flags = el('span', { class: 'ptc-flags' });
  flags.append(el('span', { class: call.ok ? 'ptc-flag ptc-flag-ok' : 'ptc-flag ptc-flag-failed' }, call.ok ? 'ok' : 'failed'));
  if (call.replayed === true) flags.append(el('span', { class: 'ptc-flag ptc-flag-replayed' }, 'replayed'));
  if (diverged) flags.append(el('span', { class: 'ptc-flag ptc-flag-diverged' }, 'diverged'));
  const box = el(
    'div',
    { class: 'ptc-call', 'data-call-id': call.id },
    el(
      'p',
      { class: 'ptc-call-head' },
      el('code', {}, `#${call.id} ${callLabel(call)}`),
      ' ',
      flags,
      el('span', { class: 'ptc-muted' }, ` started at ${formatDuration(call.startedAtMs)}, took ${formatDuration(call.durationMs)}`),
    ),
  );
  if (call.schemaViolation !== undefined) {
    const note = el('p', { class: 'ptc-schema-violation', role: 'note' }, '⚠ The answer does not match the declared output schema: ');
    appendVisibleText(note, call.schemaViolation);
    box.append(note);
  }
  box.append(
    part(ctx, 'Arguments', 'ptc-call-args', jsonTree(call.args, { ctx, label: `Arguments of call #${call.id}`, expandDepth: 2 }), () =>
      jsonText(call.args, { indent: 2 }),
    ),
  );
  if (call.ok) {
    if (call.value !== undefined) {
      const value = call.value;
      box.append(
        part(ctx, 'Value', 'ptc-call-value', jsonTree(value, { ctx, label: `Value of call #${call.id}`, expandDepth: 1 }), () =>
          jsonText(value, { indent: 2 }),
        ),
      );
    }
  } else {
    const message = el('pre', { class: 'ptc-call-message', dir: 'auto' });
    appendVisibleText(message, call.message ?? '(no message)');
    box.append(part(ctx, 'Error message', 'ptc-call-error', message, () => call.message ?? ''));
  }
  return box;
}

function part(ctx: ViewContext, title: string, cls: string, content: Node, json: () => string): HTMLElement {
  const what = title === 'Error message' ? 'text' : 'JSON';
  return el(
    'div',
    { class: `ptc-call-part ${cls}` },
    el('p', { class: 'ptc-label' }, title, ' ', copyButton(ctx, `Copy ${title.toLowerCase()}`, json, what)),
    content,
  );
}
