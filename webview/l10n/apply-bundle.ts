import * as l10n from '@vscode/l10n';
import { parseL10nBundle } from '../protocol/l10n-bundle.js';

// Loads a translation bundle for every later l10n.t call on this page; false (English stays) when it is not one.
export function applyL10nBundle(data: unknown): boolean {
  const bundle = parseL10nBundle(data);
  if (bundle === undefined || Object.keys(bundle).length === 0) return false;
  // a null-prototype copy: a message named like an Object.prototype member must not resolve to it
  l10n.config({ contents: Object.assign(Object.create(null) as Record<string, string>, bundle) });
  return true;
}
