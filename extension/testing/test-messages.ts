import * as vscode from 'vscode';
import { cellDetails, type CellTestResult } from '../../runtime/index.js';

// A failed test's messages: one per differing field, as an expected/actual diff the Test Results view can show.
export function testMessages(cell: CellTestResult, location: vscode.Location | undefined): vscode.TestMessage[] {
  const messages: vscode.TestMessage[] = [];
  for (const m of cell.report?.mismatches ?? []) {
    const message = vscode.TestMessage.diff(
      `${m.field} (${m.match}) first differs at ${m.path}: ${m.reason}`,
      m.expected,
      m.actual,
    );
    if (location !== undefined) message.location = location;
    messages.push(message);
  }
  if (messages.length === 0) {
    const message = new vscode.TestMessage(
      cellDetails(cell).join('\n') || vscode.l10n.t('The cell did not meet its expectation.'),
    );
    if (location !== undefined) message.location = location;
    messages.push(message);
  }
  return messages;
}
