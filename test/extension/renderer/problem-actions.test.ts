import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test, vi } from 'vitest';
import { PROBLEM_ACTIONS } from '../../../webview/protocol/index.js';

vi.mock('vscode', () => import('../helpers/fake-vscode.js'));

const { problemCommand } = await import('../../../extension/renderer/problem-actions.js');

const root = path.resolve(import.meta.dirname, '..', '..', '..');
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  contributes: { commands: { command: string }[] };
};
const notebook = { uri: { toString: () => 'file:///w/nb.ptcnb' } } as never;

describe("a problem output's buttons", () => {
  test.each(PROBLEM_ACTIONS)('%s runs a command the extension contributes (or VS Code has)', (action) => {
    const [command] = problemCommand(action, notebook);
    const contributed = manifest.contributes.commands.map((c) => c.command);
    expect(command === 'workbench.trust.manage' || contributed.includes(command), command).toBe(true);
  });

  test('the notebook-scoped ones act on the notebook the output is in, not whichever editor is active', () => {
    for (const action of ['set-notebook-bindings', 'pick-model', 'fake-model'] as const)
      expect(problemCommand(action, notebook).slice(1), action).toEqual([(notebook as { uri: unknown }).uri]);
  });

  test('no notebook output carries a command: link (VS Code runs only a few built-in commands from one)', () => {
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
      );
    const linking = files(path.join(root, 'extension'))
      .filter((file) => /\]\(command:/.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(root, file));
    // the status bar's hover is a trusted MarkdownString, where command links work
    expect(linking).toEqual(['extension/status/bindings-status.ts']);
  });
});
