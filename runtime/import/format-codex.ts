// Codex CLI session rollouts (`~/.codex/sessions/…/rollout-*.jsonl`): one `{ timestamp, type, payload }` per line,
// where `response_item` payloads are Responses API items. With code mode on, the model's programs are
// `custom_tool_call` items named `exec` whose `input` is JavaScript calling the session's tools
// (`tools.exec_command(…)`, or names imported from "tools.js"), and the `custom_tool_call_output` answering it is what
// the script surfaced: a `Script completed` / `Script failed` header with the wall time, then the text it passed to
// `text()` / `output_text()`. The rollout keeps the script and that text, not the nested tool calls: those are marked
// on the cell, never invented. Shapes: openai/codex `codex-rs/core/src/tools/code_mode.rs` (header, content items, tool
// imports) and `codex-rs/protocol/src/protocol.rs` (RolloutLine); see docs/import.md.
import type { ApiDocument } from './api-document.js';
import type { JsonNode } from './json-node.js';
import { locate } from './json-records.js';
import { collectTool, isoTime, newProgram } from './program-builder.js';
import type { ExtractedProgram, ExtractedTranscript, RecordedOutcome, ToolDefinition } from './transcript-model.js';
import { linesOf, textOfContent } from './values.js';

// the code-mode tool's public name (`code_mode` before it was renamed)
const PROGRAM_TOOLS = new Set(['exec', 'code_mode']);
const CALL_TYPES = new Set(['custom_tool_call', 'function_call']);
const OUTPUT_TYPES = new Set(['custom_tool_call_output', 'function_call_output']);
export const CODEX_LINE_TYPES = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted']);
const HEADER = /^Script (completed|failed|running[^\n]*)\nWall time [^\n]*\nOutput:\n?/;
// context the CLI itself injects as user messages: not the task
const INJECTED = /^\s*<(environment_context|user_instructions|permissions instructions|INSTRUCTIONS)>|^# AGENTS\.md/;
const MAX_TOOL_NAMES = 500;

export function readCodex(documents: readonly ApiDocument[], file: string): ExtractedTranscript {
  const tools = new Map<string, ToolDefinition>();
  const programs = new Map<string, ExtractedProgram>();
  let task: string | undefined;
  let model: string | undefined;
  for (const document of documents) {
    const line = document.node;
    if (!line.isObject()) throw line.fail('expected a rollout line object ({ timestamp, type, payload })');
    const type = line.tag();
    const payload = line.optObj('payload');
    if (payload === undefined || type === undefined || !CODEX_LINE_TYPES.has(type)) continue;
    if (type === 'turn_context') model = payload.optStr('model') ?? model;
    if (type !== 'response_item') continue;
    const item = payload.tag() ?? (payload.has('role') ? 'message' : undefined);
    const at = line.optStr('timestamp');
    if (item === 'message') {
      const text = textOfContent(payload.get('content')).text;
      if (payload.optStr('role') === 'user' && !INJECTED.test(text)) task = text;
    } else if (item !== undefined && CALL_TYPES.has(item) && PROGRAM_TOOLS.has(payload.optStr('name') ?? '')) {
      const id = payload.str('call_id');
      const code = item === 'custom_tool_call' ? payload.str('input') : undefined;
      const program = newProgram({
        format: 'codex',
        file,
        line: locate(payload.record, payload.path).line,
        id,
        language: 'typescript',
        languageLabel: 'javascript',
        code,
      });
      program.adapter = 'codex-javascript';
      if (code === undefined)
        program.unreproducible.push(
          `the ${payload.str('name')} call is a function call whose script this reader does not take from its arguments`,
        );
      if (task !== undefined) program.task = task;
      if (model !== undefined) program.model = model;
      if (at !== undefined) program.timestamps = { created: isoTime(at) };
      const used = toolNames(code ?? '');
      for (const name of used) collectTool(tools, { name });
      if (used.length > 0)
        program.unreproducible.push(
          `it calls ${used.slice(0, 5).join(', ')}${used.length > 5 ? ', …' : ''}, but a Codex rollout records only the script and what it surfaced, not the calls it made: a replay has no recorded answers for them`,
        );
      programs.set(id, program);
    } else if (item !== undefined && OUTPUT_TYPES.has(item)) {
      const program = programs.get(payload.str('call_id'));
      if (program === undefined) continue;
      program.outcome = scriptOutcome(payload.get('output'), program);
    }
  }
  return { format: 'codex', file, programs: [...programs.values()], tools: [...tools.values()] };
}

// `Script completed|failed` + wall time, then what the script surfaced; a failed script's error follows `Script error:`
function scriptOutcome(output: JsonNode | undefined, program: ExtractedProgram): RecordedOutcome {
  const { text: joined, dropped } = textOfContent(output);
  // content items: the header is an item of its own, which the join separated from the first output by one more newline
  const text =
    output?.isArray() === true ? joined.replace(/^(Script [^\n]*\nWall time [^\n]*\nOutput:\n)\n/, '$1') : joined;
  if (dropped.length > 0)
    program.notes.push(`the script also surfaced ${dropped.join(', ')} content, which is not compared`);
  const header = HEADER.exec(text);
  if (header === null) return { compare: 'text', logs: linesOf(text), modelText: text };
  const status = header[1] as string;
  let body = text.slice(header[0].length);
  if (status.startsWith('running')) {
    program.notes.push(
      `the script was still running when its output was recorded (${status}); later \`wait\` calls brought the rest`,
    );
    return {
      compare: 'text',
      logs: linesOf(body),
      modelText: body,
      skipped: 'the recorded output is only what the script surfaced before the wait ended',
    };
  }
  if (status === 'completed') return { compare: 'stdout', logs: linesOf(body), modelText: body };
  const marker = body.lastIndexOf('Script error:\n');
  const message = marker === -1 ? 'the script failed' : body.slice(marker + 'Script error:\n'.length).trim();
  if (marker !== -1) body = body.slice(0, marker).replace(/\n$/, '');
  return { compare: 'stdout', logs: linesOf(body), modelText: body, error: { kind: 'exception', message } };
}

// The tools a script reaches: `tools.name(…)`, `tools["name"]`, and names imported from "tools.js" / "tools/….js"
export function toolNames(code: string): string[] {
  const names = new Set<string>();
  const add = (name: string): void => {
    if (names.size < MAX_TOOL_NAMES && name !== 'tools' && name !== 'ALL_TOOLS') names.add(name);
  };
  for (const m of code.matchAll(IMPORTS)) {
    const list = m[1] ?? '';
    for (const part of list.split(',')) {
      const name = part
        .trim()
        .split(/\s+as\s+/)[0]
        ?.trim();
      if (name !== undefined && /^[A-Za-z_$][\w$]*$/.test(name)) add(name);
    }
  }
  for (const m of code.matchAll(/(?<!["'/\w.$])tools\s*(?:\.\s*([A-Za-z_$][\w$]*)|\[\s*(["'])([^"'\n]+)\2\s*\])/g))
    add((m[1] ?? m[3]) as string);
  return [...names];
}

// `import { a, b as c } from "tools.js"` (and "tools/mcp/x.js")
export const IMPORTS = /^[ \t]*import\s*\{([^}]*)\}\s*from\s*["']tools(?:\/[\w./-]+)?\.js["'];?[ \t]*$/gm;
