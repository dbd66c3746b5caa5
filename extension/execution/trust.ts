import type { ProblemAction } from '../../webview/protocol/index.js';
import type { Translate } from '../l10n.js';

// In Restricted Mode cells do not run: the bindings module they load is code from the workspace.
export function trustBlock(
  isTrusted: boolean,
  t: Translate,
): { message: string; actions: ProblemAction[] } | undefined {
  if (isTrusted) return undefined;
  const message = t(
    "This cell did not run: the workspace is in Restricted Mode. Running a cell loads the notebook's bindings module, which is code from this workspace. Trust the workspace to run cells.",
  );
  return { message, actions: ['manage-trust'] };
}
