import * as l10n from '@vscode/l10n';
import { codePointName, segmentVisible } from '../shared/visible-text.js';

// Appends text with controls (NUL, ESC, bidi overrides) shown as marked glyphs instead of silently acting.
export function appendVisibleText(parent: Node, text: string): void {
  for (const segment of segmentVisible(text)) {
    if (segment.control === undefined) {
      parent.appendChild(document.createTextNode(segment.text));
      continue;
    }
    const mark = document.createElement('span');
    mark.className = 'ptc-ctrl';
    mark.title = l10n.t('control character {0}', codePointName(segment.control));
    // the marker is a Control Pictures glyph or a U+ code point, the same in every language
    mark.textContent = segment.text;
    parent.appendChild(mark);
  }
}
