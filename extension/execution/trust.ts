import type { Translate } from '../l10n.js';

// In Restricted Mode cells do not run: the bindings module they load is code from the workspace.
export function trustBlock(isTrusted: boolean, t: Translate): { message: string; markdown: string } | undefined {
  if (isTrusted) return undefined;
  const message = t(
    "This cell did not run: the workspace is in Restricted Mode. Running a cell loads the notebook's bindings module, which is code from this workspace. Trust the workspace to run cells.",
  );
  const markdown = `${message}\n\n[${t('Manage Workspace Trust')}](command:workbench.trust.manage)`;
  return { message, markdown };
}
