import * as l10n from '@vscode/l10n';
import type { SourceLocation } from '../../runtime/protocol/run-result.js';
import { el } from '../dom/el.js';
import { appendVisibleText } from '../dom/visible-text-dom.js';
import { codeFrame } from '../shared/code-frame.js';

// The program around a location, line numbers in a gutter and a caret under the column; text only via text nodes.
export function codeFrameView(program: string, location: SourceLocation, fileName: string): HTMLElement | undefined {
  const frame = codeFrame(program, location);
  if (frame === undefined) return undefined;
  const width = String(frame.lines[frame.lines.length - 1]?.number ?? 1).length;
  const code = el('code', {});
  for (const line of frame.lines) {
    const row = el('span', {
      class: line.target ? 'ptc-frame-line ptc-frame-target' : 'ptc-frame-line',
      'data-line': line.number,
    });
    row.append(
      el(
        'span',
        { class: 'ptc-gutter', 'aria-hidden': 'true' },
        `${line.target ? '>' : ' '} ${String(line.number).padStart(width)} │ `,
      ),
    );
    const text = el('span', { class: 'ptc-frame-text' });
    appendVisibleText(text, line.text);
    row.append(text);
    code.append(row);
    if (line.target && frame.caretPrefix !== undefined) {
      code.append(
        el(
          'span',
          { class: 'ptc-frame-caret', 'aria-hidden': 'true' },
          el('span', { class: 'ptc-gutter' }, `  ${' '.repeat(width)} │ `),
          `${frame.caretPrefix}^`,
        ),
      );
    }
  }
  const where = `${fileName}:${location.line}${location.column === undefined ? '' : `:${location.column}`}`;
  return el(
    'figure',
    { class: 'ptc-code-frame', 'data-line': location.line },
    el('figcaption', {}, where),
    el('pre', { 'aria-label': l10n.t('Program source around line {0}', location.line), dir: 'ltr' }, code),
  );
}
