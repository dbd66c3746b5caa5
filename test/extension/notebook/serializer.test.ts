import { readFileSync } from 'node:fs';
import { describe, expect, test, vi } from 'vitest';
import { PROBLEM_MIME, RESULT_MIME } from '../../../webview/protocol/index.js';
import * as fake from '../helpers/fake-vscode.js';
import { recordingLogger } from '../helpers/recording-logger.js';

vi.mock('vscode', () => import('../helpers/fake-vscode.js'));

const { PtcNotebookSerializer, UnreadableNotebookError } = await import('../../../extension/notebook/serializer.js');

const canonical = readFileSync(new URL('../../runtime/notebook/fixtures/canonical.ptcnb', import.meta.url));
const decode = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

function serializer(saveOutputs = true): InstanceType<typeof PtcNotebookSerializer> {
  return new PtcNotebookSerializer({ log: recordingLogger().logger, saveOutputs: () => saveOutputs });
}

describe('PtcNotebookSerializer', () => {
  test('a deserialize → VS Code → serialize round trip reproduces the file byte for byte', () => {
    const s = serializer();
    const data = s.deserializeNotebook(canonical) as unknown as fake.NotebookData;
    const bytes = s.serializeNotebook(fake.throughVsCode(data) as never);
    expect(decode(bytes)).toBe(decode(canonical));
  });

  test('opens saved results as rich outputs with a plain-text fallback and the last ✓/✗', () => {
    const data = serializer().deserializeNotebook(canonical) as unknown as fake.NotebookData;
    const [markdown, ok, failed] = data.cells;
    expect(markdown?.kind).toBe(fake.NotebookCellKind.Markup);
    expect(ok?.languageId).toBe('typescript');
    expect(ok?.outputs?.[0]?.items.map((i) => i.mime)).toEqual([RESULT_MIME, 'text/plain']);
    const payload = JSON.parse(decode(ok?.outputs?.[0]?.items[0]?.data ?? new Uint8Array())) as {
      cellId: string;
      result: { value: number };
    };
    expect(payload).toMatchObject({ cellId: 'add-numbers', language: 'typescript', result: { value: 3 } });
    // the saved run's duration comes back with its ✓ (VS Code shows it in the cell status)
    expect(ok?.executionSummary).toEqual({ success: true, timing: { startTime: 0, endTime: 43 } });
    expect(failed?.outputs?.[0]?.items.map((i) => i.mime)).toEqual([PROBLEM_MIME, 'text/markdown', 'text/plain']);
    expect(failed?.executionSummary).toEqual({ success: false });
  });

  test('a huge notebook from elsewhere opens: outputs over the budget become a note, the source stays, a save is small', () => {
    const record = (id: number) => ({
      id,
      global: 'tools',
      name: 'search',
      args: { q: 'paris'.repeat(20) },
      ok: true,
      value: [id],
      startedAtMs: id,
      durationMs: 0.1,
    });
    const runaway = {
      language: 'typescript',
      logs: [],
      calls: Array.from({ length: 60_000 }, (_, i) => record(i + 1)),
      sandbox: { network: 'denied', filesystem: 'denied', childProcess: 'denied', enforcement: 'full', mechanisms: [] },
      durationMs: 10_000,
      error: { kind: 'abort', message: 'cancelled' },
    };
    const source = 'while (true) await tools.search({ q: "paris" });';
    const file = {
      version: 1,
      cells: [
        {
          kind: 'code',
          language: 'typescript',
          source,
          metadata: { id: 'loop' },
          outputs: [{ kind: 'result', result: runaway }],
        },
      ],
    };
    const content = new TextEncoder().encode(JSON.stringify(file, null, 2));
    expect(content.byteLength).toBeGreaterThan(8 * 1024 * 1024);
    const s = serializer();
    const data = s.deserializeNotebook(content) as unknown as fake.NotebookData;
    const cell = data.cells[0] as fake.NotebookCellData;
    expect(cell.value).toBe(source);
    expect(cell.outputs?.[0]?.items.map((i) => i.mime)).toEqual([PROBLEM_MIME, 'text/markdown', 'text/plain']);
    expect(decode(cell.outputs?.[0]?.items[2]?.data ?? new Uint8Array())).toMatch(
      /^The saved result \(\d+\.\d MiB\) was over the 1\.0 MiB per-cell output budget/,
    );
    // the dropped run was cancelled: it reopens without ✗ (and with its duration), as a loaded one would
    expect(cell.executionSummary).toEqual({ timing: { startTime: 0, endTime: 10_000 } });
    const saved = s.serializeNotebook(fake.throughVsCode(data) as never);
    expect(saved.byteLength).toBeLessThan(4096);
    expect(decode(saved)).toContain(source.replace(/"/g, '\\"'));
  });

  test('opens a zero-byte file as an empty notebook', () => {
    const data = serializer().deserializeNotebook(new Uint8Array()) as unknown as fake.NotebookData;
    expect(data.cells).toEqual([]);
  });

  test.each([
    ['corrupt JSON', '{"version": 1, "cells": [', /line 1, column 26: invalid JSON: unexpected end of file/],
    ['a future version', '{"version": 7, "cells": []}', /notebook format version 7/],
    [
      'a wrong field',
      '{"version": 1, "cells": [{"kind": "code", "language": "ruby", "source": ""}]}',
      /cells\[0\]\.language: expected "typescript" or "python"/,
    ],
  ])('refuses to open %s, naming the problem, instead of returning an empty notebook', (_name, text, message) => {
    const s = serializer();
    const open = (): unknown => s.deserializeNotebook(new TextEncoder().encode(text));
    expect(open).toThrow(UnreadableNotebookError);
    expect(open).toThrow(message);
    expect(open).toThrow(/not opened as a notebook and was left unchanged\. Open it in a text editor to fix it\./);
    // it names no button: the buttons under the message are VS Code's
    expect(open).not.toThrow(/Open as Text|Open With/);
  });

  test('refuses bytes that are not UTF-8', () => {
    expect(() => serializer().deserializeNotebook(new Uint8Array([0x7b, 0xff, 0x7d]))).toThrow(/not valid UTF-8/);
  });

  test("saves only the result and could-not-run outputs, never live log streams or other extensions' outputs", () => {
    const s = serializer();
    const data = s.deserializeNotebook(canonical) as unknown as fake.NotebookData;
    const cell = data.cells[1] as fake.NotebookCellData;
    cell.outputs = [
      new fake.NotebookCellOutput([fake.NotebookCellOutputItem.stdout('live line')], { ptc: { kind: 'stream' } }),
      new fake.NotebookCellOutput([fake.NotebookCellOutputItem.text('foreign')]),
      ...(cell.outputs ?? []),
      new fake.NotebookCellOutput([fake.NotebookCellOutputItem.text('x')], {
        ptc: { kind: 'problem', message: 'untrusted', persist: false },
      }),
    ];
    const text = decode(s.serializeNotebook(data as never));
    expect(text).toBe(decode(canonical));
  });

  test('leaves outputs out of the file when they are transient', () => {
    const s = serializer(false);
    const text = decode(s.serializeNotebook(s.deserializeNotebook(canonical)));
    expect(text).not.toContain('"outputs"');
    expect(text).toContain('"x-team"');
  });

  test('fails the save with a clear message for a cell language the format cannot hold', () => {
    const s = serializer();
    const data = new fake.NotebookData([new fake.NotebookCellData(fake.NotebookCellKind.Code, 'x', 'javascript')]);
    expect(() => s.serializeNotebook(data as never)).toThrow(/cells\[0\]\.language/);
  });
});
