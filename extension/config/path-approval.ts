// Interpreter paths from workspace or folder settings are code the workspace chose: run them only once approved.

export type RuntimePathKey = 'pythonPath' | 'nodePath';

// The parts of `WorkspaceConfiguration.inspect()` that matter here.
export interface PathInspection {
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

export type PathDecision =
  // no path configured (use the default lookup) or a path from user settings
  | { kind: 'use'; path: string | undefined }
  // a workspace-level path that needs the user's one-time approval
  | { kind: 'ask'; path: string; source: 'workspace' | 'workspace folder' }
  // the user said no earlier in this session
  | { kind: 'denied'; path: string; source: 'workspace' | 'workspace folder' };

export interface ApprovalMemory {
  // persisted approvals (workspaceState): `${key}=${path}`
  approved: readonly string[];
  // denials last for the session only
  deniedThisSession: ReadonlySet<string>;
}

const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

export function approvalKey(key: RuntimePathKey, path: string): string {
  return `${key}=${path}`;
}

// Decides whether a configured interpreter path may be spawned now.
export function decideRuntimePath(
  key: RuntimePathKey,
  inspection: PathInspection,
  memory: ApprovalMemory,
): PathDecision {
  const folder = inspection.workspaceFolderValue;
  const workspace = inspection.workspaceValue;
  const fromWorkspace = nonEmpty(folder)
    ? { path: folder, source: 'workspace folder' as const }
    : nonEmpty(workspace)
      ? { path: workspace, source: 'workspace' as const }
      : undefined;
  if (fromWorkspace === undefined)
    return { kind: 'use', path: nonEmpty(inspection.globalValue) ? inspection.globalValue : undefined };
  // the same path in user settings is already the user's own choice
  if (inspection.globalValue === fromWorkspace.path) return { kind: 'use', path: fromWorkspace.path };
  const id = approvalKey(key, fromWorkspace.path);
  if (memory.approved.includes(id)) return { kind: 'use', path: fromWorkspace.path };
  if (memory.deniedThisSession.has(id)) return { kind: 'denied', ...fromWorkspace };
  return { kind: 'ask', ...fromWorkspace };
}
