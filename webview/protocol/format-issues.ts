import type * as z from 'zod/mini';

const MAX_ISSUES = 8;

// One line per zod issue, `path: message`, capped so a huge bad payload stays readable.
export function formatIssues(issues: readonly z.core.$ZodIssue[]): string {
  const lines = issues.slice(0, MAX_ISSUES).map((issue) => {
    const path = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('');
    return `${path.replace(/^\./, '') || '(root)'}: ${issue.message}`;
  });
  if (issues.length > MAX_ISSUES) lines.push(`… and ${issues.length - MAX_ISSUES} more`);
  return lines.join('\n');
}
