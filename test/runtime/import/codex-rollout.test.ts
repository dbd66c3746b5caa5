// Codex CLI session rollouts with code mode on: `exec` custom tool calls are the programs (JavaScript importing its
// tools from "tools.js" and its output helpers from "@openai/code_mode"), `custom_tool_call_output` what they surfaced.
// No public rollout recorded with code mode was found; these lines follow the vendor's source, openai/codex
// codex-rs/core/src/tools/code_mode.rs at 1947a214bd23eec47faf5fd0c568cd5ce2285bd2 (the `Script completed` header,
// content items, tool imports) and the RolloutLine `{ timestamp, type, payload }` of codex-rs/protocol.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { type CellVerdict, importedMetaOf, planImport, verifyImportedNotebook } from '../../../runtime/import/index.js';
import { cellById, importInto, scratch } from './import-helpers.js';

const fresh = scratch('ptc-import-codex-');

const line = (type: string, payload: unknown, second = 0): string =>
  JSON.stringify({ timestamp: `2026-03-04T11:20:${String(second).padStart(2, '0')}.000Z`, type, payload });
const script = (callId: string, input: string, second: number): string =>
  line(
    'response_item',
    { type: 'custom_tool_call', status: 'completed', call_id: callId, name: 'exec', input },
    second,
  );
const scriptOutput = (callId: string, header: string, texts: string[], second: number): string =>
  line(
    'response_item',
    {
      type: 'custom_tool_call_output',
      call_id: callId,
      output: [{ type: 'input_text', text: header }, ...texts.map((text) => ({ type: 'input_text', text }))],
    },
    second,
  );

function rollout(): string {
  return [
    line('session_meta', {
      id: '019aad50-a7e6-7422-b7a8-0b384290624f',
      cwd: '/work/app',
      originator: 'codex_cli_rs',
      cli_version: '0.118.0',
      source: 'cli',
      model_provider: 'openai',
    }),
    line(
      'response_item',
      {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_text', text: '<environment_context>\n  <cwd>/work/app</cwd>\n</environment_context>' },
        ],
      },
      1,
    ),
    line(
      'response_item',
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'how many tests fail?' }] },
      2,
    ),
    line(
      'turn_context',
      { cwd: '/work/app', approval_policy: 'on-request', model: 'gpt-5.3-codex', effort: 'high' },
      3,
    ),
    line('response_item', { type: 'reasoning', summary: [], encrypted_content: 'gAAAA' }, 4),
    script(
      'call_math',
      'import { output_text } from "@openai/code_mode";\nconst n = [1, 2, 3].reduce((a, b) => a + b, 0);\noutput_text({ n });\ntext(`sum ${n}`);',
      5,
    ),
    scriptOutput('call_math', 'Script completed\nWall time 0.1 seconds\nOutput:\n', ['{"n":6}', 'sum 6'], 6),
    script(
      'call_tests',
      'import { exec_command } from "tools.js";\nconst r = await exec_command({ cmd: "npm test", workdir: "/work/app" });\ntext(r.output);\nconst s = await tools.view_image({ path: "a.png" });',
      7,
    ),
    line(
      'event_msg',
      { type: 'exec_command_end', call_id: 'exec-1', exit_code: 1, aggregated_output: 'Tests: 1 failed' },
      8,
    ),
    scriptOutput(
      'call_tests',
      'Script completed\nWall time 3.1 seconds\nOutput:\n',
      ['Tests:       1 failed, 3 passed, 4 total\n'],
      9,
    ),
    script('call_bad', 'const x = null;\ntext(x.y);', 10),
    scriptOutput(
      'call_bad',
      'Script failed\nWall time 0.0 seconds\nOutput:\n',
      ["Script error:\nTypeError: Cannot read properties of null (reading 'y')"],
      11,
    ),
    line('event_msg', { type: 'agent_message', message: '1 test fails.' }, 12),
  ].join('\n');
}

async function verified(out: string): Promise<CellVerdict[]> {
  const outcome = await verifyImportedNotebook(out);
  if (!outcome.ok) throw new Error(outcome.message);
  return outcome.cells;
}

describe('Codex CLI rollouts (code mode)', { timeout: 180_000 }, () => {
  test('exec scripts are the programs, detected without --format; what they surfaced replays; a failure replays as one', async () => {
    const dir = fresh();
    const file = path.join(dir, 'rollout-2026-03-04T11-20-00-019aad50.jsonl');
    fs.writeFileSync(file, rollout());
    const { out, plan, notebook } = await importInto(dir, [file]);
    expect(plan.sources).toEqual([{ file, format: 'codex', shape: 'JSON Lines', programs: 3 }]);
    const math = cellById(notebook, 'call_math');
    expect(importedMetaOf(math.metadata)).toMatchObject({
      format: 'codex',
      model: 'gpt-5.3-codex',
      then: { compare: 'stdout', logs: ['{"n":6}', 'sum 6'] },
    });
    // the import from "@openai/code_mode" is provided by the header, not left in the block
    expect(math.source).not.toMatch(/^import /m);
    const tests = importedMetaOf(cellById(notebook, 'call_tests').metadata);
    expect(tests?.unreproducible).toEqual([
      expect.stringMatching(/^it calls exec_command, view_image, but a Codex rollout records only the script/),
    ]);
    const bad = importedMetaOf(cellById(notebook, 'call_bad').metadata);
    expect(bad?.then).toMatchObject({
      compare: 'stdout',
      logs: [],
      error: { kind: 'exception', message: "TypeError: Cannot read properties of null (reading 'y')" },
    });
    // the stub declares the tools the scripts reach
    expect(fs.readFileSync(path.join(dir, 'imported.bindings.mjs'), 'utf8')).toMatch(
      /exec_command[\s\S]*view_image|view_image[\s\S]*exec_command/,
    );
    const verdicts = Object.fromEntries((await verified(out)).map((v) => [v.cellId, v.comparison?.agrees]));
    expect(verdicts).toMatchObject({ call_math: true, call_bad: true });
  });

  test('a rollout without code mode says there is no exec script in it', async () => {
    const dir = fresh();
    const file = path.join(dir, 'plain.jsonl');
    fs.writeFileSync(
      file,
      [
        line('session_meta', { id: 's', cwd: '/w', originator: 'codex_cli_rs', cli_version: '0.60.1' }),
        line(
          'response_item',
          { type: 'function_call', name: 'shell', arguments: '{"command":["ls"]}', call_id: 'call_1' },
          1,
        ),
        line('response_item', { type: 'function_call_output', call_id: 'call_1', output: 'a.txt' }, 2),
      ].join('\n'),
    );
    const outcome = await planImport({ files: [file], out: path.join(dir, 'x.ptcnb') });
    expect(outcome).toMatchObject({
      ok: false,
      message: expect.stringMatching(
        /plain\.jsonl:1: no programs found: read as Codex CLI session rollout .* it holds no code-mode "exec" call/,
      ),
    });
  });

  test('a rollout line whose payload is broken is named by file and line', async () => {
    const dir = fresh();
    const file = path.join(dir, 'broken.jsonl');
    fs.writeFileSync(
      file,
      [
        line('session_meta', { id: 's' }),
        line('response_item', { type: 'custom_tool_call', name: 'exec', input: 'text(1)' }, 1),
      ].join('\n'),
    );
    const outcome = await planImport({ files: [file], out: path.join(dir, 'x.ptcnb') });
    expect(outcome).toMatchObject({
      ok: false,
      message: expect.stringMatching(/broken\.jsonl:2:\d+: payload\.call_id: missing required field/),
    });
  });
});
