// `ptc import` and offline replay over real recorded traffic (examples/transcripts/SOURCES.md names where each file
// comes from): VCR cassettes with streamed and non-streamed Anthropic replies, the raw SSE body and its events as JSON
// Lines, server tools called from code, a recorded failure, and programs that share a container's state.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { type CellVerdict, importedMetaOf, planImport, verifyImportedNotebook } from '../../../runtime/import/index.js';
import type { CodeCell } from '../../../runtime/notebook/schema.js';
import { allWritten, cellById, EXAMPLES, importInto, scratch } from './import-helpers.js';

const fresh = scratch('ptc-import-real-');
const file = (name: string): string => path.join(EXAMPLES, name);

async function verified(out: string): Promise<CellVerdict[]> {
  const outcome = await verifyImportedNotebook(out);
  if (!outcome.ok) throw new Error(outcome.message);
  return outcome.cells;
}

describe('real recordings import without --format and replay offline', { timeout: 180_000 }, () => {
  test.each([
    ['anthropic-code-execution-stream.vcr.yaml', 'YAML, VCR cassette, streamed replies reassembled'],
    ['anthropic-code-execution-stream.sse', 'server-sent events, streamed replies reassembled'],
    ['anthropic-code-execution-stream.events.jsonl', 'JSON Lines, streamed replies reassembled'],
  ])('a streamed code execution (%s) is reassembled from its events and replays as recorded', async (name, shape) => {
    const { out, plan, notebook } = await importInto(fresh(), [file(name)]);
    expect(plan.sources).toEqual([{ file: file(name), format: 'anthropic', shape, programs: 1 }]);
    const cell = cellById(notebook, 'srvtoolu_01MKwyo39KHRDr9Ubff5vWtG') as CodeCell;
    // the program text arrived in input_json_delta fragments
    expect(cell.source).toContain('step1 = 6544 * 65464  # Multiplication first\nprint(f"Step 1 - Multiplication: 6544 * 65464 = {step1}")');
    expect(importedMetaOf(cell.metadata)).toMatchObject({ model: 'claude-sonnet-4-20250514', ids: { message: 'msg_01TaPV5KLA8MsCPDuJNKPLF4' } });
    expect((await verified(out)).map((v) => [v.cellId, v.comparison?.agrees])).toEqual([['srvtoolu_01MKwyo39KHRDr9Ubff5vWtG', true]]);
  });

  test('a non-streamed VCR cassette of two requests: both programs, each in its container, replay as recorded', async () => {
    const { out, plan } = await importInto(fresh(), [file('anthropic-code-execution.vcr.yaml')]);
    expect(plan.sources[0]).toMatchObject({ format: 'anthropic', shape: 'YAML, VCR cassette', programs: 2 });
    expect((await verified(out)).every((v) => v.comparison?.agrees === true)).toBe(true);
  });

  test('web_fetch called from code is a recorded call; a recorded TypeError replays as that failure; container state is rebuilt', async () => {
    const { dir, out, notebook } = await importInto(fresh(), [file('anthropic-web-fetch-from-code.vcr.yaml')]);
    const first = cellById(notebook, 'srvtoolu_01AyD129t4BNGn7tvyqs8U5a') as CodeCell;
    // the server tool is bound in the cell (it was a NameError) and its recorded answer is in the cassette
    expect(first.source).toMatch(/^web_fetch = __ptc_tool\(/m);
    const cassette = JSON.parse(fs.readFileSync(path.join(dir, '.ptc', 'cassettes', 'srvtoolu_01AyD129t4BNGn7tvyqs8U5a.json'), 'utf8')) as {
      calls: { name: string; args: unknown; ok: boolean; value: { type: string; url: string } }[];
    };
    expect(cassette.calls).toMatchObject([{ name: 'web_fetch', args: { url: 'https://ai.pydantic.dev' }, ok: true, value: { type: 'web_fetch_result' } }]);
    // the fourth program reads `parsed`, which the first left in the container: the cell runs the first one ahead of it
    const fourth = cellById(notebook, 'srvtoolu_019svQeudg5ktwdgsezxsPuS') as CodeCell;
    expect(importedMetaOf(fourth.metadata)?.notes).toContainEqual(
      expect.stringContaining('uses `parsed` from earlier programs of container container_011CbNtk54HX1gjV328ZQ4ar'),
    );
    const verdicts = await verified(out);
    const agrees = Object.fromEntries(verdicts.map((v) => [v.cellId, v.comparison?.agrees]));
    expect(agrees).toMatchObject({
      srvtoolu_01AyD129t4BNGn7tvyqs8U5a: true,
      // recorded: TypeError (re.search on a dict); replayed: the same failure
      srvtoolu_01HTkmTHY4UDxwmNGMjRjezp: true,
      srvtoolu_019svQeudg5ktwdgsezxsPuS: true,
    });
    // the third prints the recorded dict, whose keys the recording itself stored sorted: an honest difference
    expect(verdicts.find((v) => v.cellId === 'srvtoolu_018pXykGbk3xAVWWy8Hbcbex')?.comparison?.differences[0]).toMatch(/^stdout differs at line 2/);
    expect(JSON.stringify(allWritten(dir))).not.toContain('NameError');
  });

  test('a program that needs state only a failed program left is marked, not run against missing variables', async () => {
    const dir = fresh();
    const text = fs
      .readFileSync(file('anthropic-web-fetch-from-code.vcr.yaml'), 'utf8')
      // the first program fails instead: `parsed` can no longer be rebuilt for the later ones
      .replace(
        "          return_code: 0\n          stderr: ''\n          stdout: |\n            None",
        "          return_code: 1\n          stderr: 'boom'\n          stdout: |\n            None",
      );
    expect(text).toContain("stderr: 'boom'");
    const copy = path.join(dir, 'failed-first.yaml');
    fs.writeFileSync(copy, text);
    const outcome = await planImport({ files: [copy], out: path.join(dir, 'x.ptcnb') });
    if (!outcome.ok) throw new Error(outcome.message);
    const fourth = outcome.plan.cells.find((c) => c.id === 'srvtoolu_019svQeudg5ktwdgsezxsPuS');
    expect(fourth).toMatchObject({ kind: 'markdown', unreproducible: [expect.stringContaining('uses `parsed` left in container')] });
  });
});
