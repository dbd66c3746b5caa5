import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as l10n from '@vscode/l10n';
import { describe, expect, test } from 'vitest';
import { explainFailure } from '../../../webview/shared/failure-kinds.js';
import { formatResultText } from '../../../webview/shared/format-result-text.js';
import { modelView } from '../../../webview/shared/model-view.js';
import { fixtureNames, fixturePayload } from '../fixtures/run-results.mjs';

const REPO = path.resolve(import.meta.dirname, '..', '..', '..');
const english = JSON.parse(readFileSync(path.join(REPO, 'l10n', 'bundle.l10n.json'), 'utf8')) as Record<string, string>;
const pseudo = Object.fromEntries(Object.keys(english).map((key) => [key, `⟦${key}⟧`]));

// Every fixture's model text and plain-text fallback, as the extension produces them.
function texts(): string[] {
  return fixtureNames().flatMap((name) => {
    const payload = fixturePayload(name);
    return [modelView(payload.result).text, formatResultText(payload.result, { timeoutMs: payload.timeoutMs })];
  });
}

describe('model-facing text', () => {
  test('is byte-identical whatever translation bundle is loaded: the shared helpers are handed the untranslated wording', () => {
    const before = texts();
    const failure = fixturePayload('failure-timeout').result.error;
    if (failure === undefined) throw new Error('the timeout fixture has no error');
    const plain = explainFailure(failure, l10n.t);
    try {
      l10n.config({ contents: pseudo });
      // the bundle is live: the same helper handed l10n.t now words the failure in the "display language"
      expect(explainFailure(failure, l10n.t)).toBe(`⟦${plain}⟧`);
      expect(l10n.t('Re-run')).toBe('⟦Re-run⟧');
      const after = texts();
      expect(after).toHaveLength(before.length);
      for (const [i, text] of after.entries())
        expect(Buffer.from(text, 'utf8').equals(Buffer.from(before[i] ?? '', 'utf8')), text.slice(0, 80)).toBe(true);
      expect(after.join('\n')).not.toContain('⟦');
    } finally {
      l10n.config({ contents: {} });
    }
  });
});
