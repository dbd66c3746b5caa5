// The task cell's streamed-reply view against an execution whose output updates take as long as VS Code's round trip
// to the window does on a loaded machine (seconds, measured in code-server): the cell must follow the stream with at
// most one repaint in flight, and neither the run's end nor Stop may wait behind repaints of pieces long superseded.
import { describe, expect, test, vi } from 'vitest';
import type * as vscode from 'vscode';
import { ReplyView } from '../../../extension/model/reply-view.js';

vi.mock('vscode', () => import('../helpers/fake-vscode.js'));

interface Update {
  kind: 'replace' | 'items';
  text: string;
  done: () => void;
}

// An execution whose every output update stays pending until the test lets it land.
function slowExecution(): { execution: vscode.NotebookCellExecution; updates: Update[]; inFlight: () => number } {
  const updates: Update[] = [];
  let pending = 0;
  const update =
    (kind: Update['kind']) =>
    (output: vscode.NotebookCellOutput | vscode.NotebookCellOutputItem[]): Promise<void> => {
      const items = Array.isArray(output) ? output : output.items;
      const text = new TextDecoder().decode(items[0]?.data);
      pending++;
      return new Promise((resolve) =>
        updates.push({
          kind,
          text,
          done: () => {
            pending--;
            resolve();
          },
        }),
      );
    };
  const execution = {
    replaceOutput: update('replace'),
    replaceOutputItems: (items: vscode.NotebookCellOutputItem[]) => update('items')(items),
  } as unknown as vscode.NotebookCellExecution;
  return { execution, updates, inFlight: () => pending };
}

const progress = (text: string) => ({ text, toolCalls: [] });
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

describe('ReplyView', () => {
  test('paints the first piece at once, keeps one repaint in flight and folds the pieces meanwhile into the next', async () => {
    const { execution, updates, inFlight } = slowExecution();
    const view = new ReplyView({ execution, language: 'typescript', model: 'openai:fake' });
    view.show(1, progress('first'));
    await vi.waitFor(() => expect(updates).toHaveLength(1));
    expect(updates[0]).toMatchObject({ kind: 'replace' });
    expect(updates[0]?.text).toContain('first');
    // fifty pieces arrive while the window is still busy with the first repaint
    for (let i = 0; i < 50; i++) view.show(1, progress(`piece ${i}`));
    await settle();
    expect(updates).toHaveLength(1);
    expect(inFlight()).toBe(1);
    updates[0]?.done();
    // one repaint follows, of the newest piece, updating the same output in place
    await vi.waitFor(() => expect(updates).toHaveLength(2));
    expect(updates[1]).toMatchObject({ kind: 'items' });
    expect(updates[1]?.text).toContain('piece 49');
    updates[1]?.done();
    await settle();
    expect(updates).toHaveLength(2);
    await view.close();
  });

  test('close waits for the repaint under way only, and nothing paints after it', async () => {
    const { execution, updates } = slowExecution();
    const view = new ReplyView({ execution, language: 'typescript', model: 'openai:fake' });
    view.show(1, progress('a'));
    await vi.waitFor(() => expect(updates).toHaveLength(1));
    for (let i = 0; i < 20; i++) view.show(1, progress(`b${i}`));
    let closed = false;
    const closing = view.close().then(() => (closed = true));
    await settle();
    expect(closed).toBe(false);
    updates[0]?.done();
    await closing;
    view.show(1, progress('late'));
    await settle();
    expect(updates).toHaveLength(1);
  });

  test('a repaint that fails does not freeze the view: the next piece replaces the output whole', async () => {
    const calls: string[] = [];
    let fail = true;
    const execution = {
      replaceOutput: (output: vscode.NotebookCellOutput) => {
        calls.push(`replace ${new TextDecoder().decode(output.items[0]?.data)}`);
        if (fail) {
          fail = false;
          return Promise.reject(new Error('the execution has ended'));
        }
        return Promise.resolve();
      },
      replaceOutputItems: () => Promise.resolve(calls.push('items')),
    } as unknown as vscode.NotebookCellExecution;
    const view = new ReplyView({ execution, language: 'python', model: 'm' });
    view.show(1, progress('one'));
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    view.show(1, progress('two'));
    await vi.waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[1]).toMatch(/^replace .*two/s);
    view.show(1, progress('three'));
    await vi.waitFor(() => expect(calls).toEqual([expect.any(String), expect.any(String), 'items']));
    await view.close();
  });
});
