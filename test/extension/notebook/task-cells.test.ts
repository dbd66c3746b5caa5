// Task cells through the extension's serializer: a code cell in the ptc-task language, back to `"kind": "task"`.
import { readFileSync } from 'node:fs';
import { describe, expect, test, vi } from 'vitest';
import * as fake from '../helpers/fake-vscode.js';
import { recordingLogger } from '../helpers/recording-logger.js';

vi.mock('vscode', () => import('../helpers/fake-vscode.js'));

const { PtcNotebookSerializer } = await import('../../../extension/notebook/serializer.js');
const { TASK_LANGUAGE } = await import('../../../extension/constants.js');

const file = readFileSync(new URL('../../../examples/models/tasks.ptcnb', import.meta.url));
const decode = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

describe('task cells in the serializer', () => {
  test('open as runnable code cells in the task language with their metadata, and save back byte for byte', () => {
    const serializer = new PtcNotebookSerializer({ log: recordingLogger().logger, saveOutputs: () => true });
    const data = serializer.deserializeNotebook(file) as unknown as fake.NotebookData;
    const [, paris, sum] = data.cells;
    expect(paris?.kind).toBe(fake.NotebookCellKind.Code);
    expect(paris?.languageId).toBe(TASK_LANGUAGE);
    expect(sum?.metadata).toEqual({ id: 'paris-lyon', turns: 4 });
    expect(decode(serializer.serializeNotebook(fake.throughVsCode(data) as never))).toBe(decode(file));
  });
});
