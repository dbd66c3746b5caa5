import { describe, expect, test, vi } from 'vitest';
import { stepsDoneBy } from '../../../extension/walkthrough/walkthrough-progress.js';

vi.mock('vscode', () => import('../helpers/fake-vscode.js'));

const result = (meta: Record<string, unknown>) => ({
  metadata: { ptc: { kind: 'result', durationMs: 1, callCount: 1, ...meta } },
});

describe('the walkthrough steps a finished cell completes', () => {
  test('a recorded run ticks Run and Record, a replayed one Run and Replay, whatever started it', () => {
    expect(
      stepsDoneBy({
        languageId: 'typescript',
        outputs: [result({ mode: 'live', cassette: '/nb/.ptc/cassettes/a.json' })],
      }),
    ).toEqual(['ran', 'recorded']);
    expect(
      stepsDoneBy({
        languageId: 'python',
        outputs: [result({ mode: 'replay', replay: { matched: 1, diverged: 0, unused: 0 } })],
      }),
    ).toEqual(['ran', 'replayed']);
    expect(stepsDoneBy({ languageId: 'typescript', outputs: [result({ mode: 'mock' })] })).toEqual(['ran']);
  });

  test('a cell that could not run ticks nothing; a task cell ticks the task step', () => {
    expect(
      stepsDoneBy({
        languageId: 'typescript',
        outputs: [{ metadata: { ptc: { kind: 'problem', message: 'x', persist: false } } }],
      }),
    ).toEqual([]);
    expect(stepsDoneBy({ languageId: 'typescript', outputs: [] })).toEqual([]);
    expect(stepsDoneBy({ languageId: 'ptc-task', outputs: [] })).toEqual(['taskRan']);
  });
});
