import * as l10n from '@vscode/l10n';
import { el } from '../dom/el.js';
import type { InspectorRun } from '../protocol/inspector-messages.js';

// A labelled <select> over the known runs, newest last; the label carries source and time.
export function runPicker(options: {
  id: string;
  label: string;
  runs: readonly InspectorRun[];
  selectedId: string | undefined;
  signal: AbortSignal;
  onChange(id: string): void;
}): HTMLElement {
  const select = el('select', { id: options.id, class: 'ptc-select' });
  for (const run of options.runs) {
    const option = el('option', { value: run.id }, runText(run));
    if (run.id === options.selectedId) option.selected = true;
    select.append(option);
  }
  select.disabled = options.runs.length === 0;
  select.addEventListener('change', () => options.onChange(select.value), { signal: options.signal });
  return el('label', { class: 'ptc-picker', for: options.id }, el('span', {}, options.label), select);
}

// "cell 3 · run 4 · live — failed (timeout) · 12:04:31"
export function runText(run: InspectorRun): string {
  const result = run.payload.result;
  const when = run.createdAt === undefined ? '' : ` · ${timeOf(run.createdAt)}`;
  if (run.source === 'cassette') {
    const calls =
      result.calls.length === 1
        ? l10n.t('cassette, 1 recorded call')
        : l10n.t('cassette, {0} recorded calls', result.calls.length);
    return `${run.label} — ${calls}${when}`;
  }
  if (run.source === 'transcript')
    return `${run.label} — ${result.error === undefined ? l10n.t('as recorded') : l10n.t('as recorded, failed ({0})', result.error.kind)}`;
  const outcome = result.error === undefined ? l10n.t('succeeded') : l10n.t('failed ({0})', result.error.kind);
  return `${run.label} — ${outcome}${when}`;
}

function timeOf(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleTimeString();
}
