import type { ApiDocument } from './api-document.js';
import { ImportFailure } from './import-error.js';
import { CODEX_LINE_TYPES } from './format-codex.js';
import type { JsonNode } from './json-node.js';
import { FORMAT_TITLES, TRANSCRIPT_FORMATS, type TranscriptFormat } from './transcript-model.js';

// Enough of a file to recognise its format; the rest is read by the format's own reader.
const SAMPLE_DOCUMENTS = 64;
const SAMPLE_ITEMS = 256;

const DEEPSEEK_EVENT = /^(tool|user|assistant|turn|step|agent|approval|session|model|deliverables)\//;
const ANTHROPIC_BLOCKS = new Set([
  'tool_use',
  'server_tool_use',
  'tool_result',
  'code_execution_tool_result',
  'bash_code_execution_tool_result',
  'thinking',
]);
const OPENAI_ITEMS = new Set([
  'program',
  'program_output',
  'function_call',
  'function_call_output',
  'custom_tool_call',
  'custom_tool_call_output',
  'code_interpreter_call',
  'reasoning',
]);

// Which format a transcript is in, from tell-tale fields of its first payloads; unknown is an error naming the file.
export function detectFormat(documents: readonly ApiDocument[], file: string): TranscriptFormat {
  const scores: Record<TranscriptFormat, number> = {
    anthropic: 0,
    openai: 0,
    'openai-chat': 0,
    codex: 0,
    deepseek: 0,
    'ptc-trace': 0,
  };
  const first = documents[0]?.node;
  if (first !== undefined && first.tag() === 'ptc-trace') return 'ptc-trace';
  for (const document of documents.slice(0, SAMPLE_DOCUMENTS)) {
    const node = document.node;
    const list = node.isArray() ? node.items().slice(0, SAMPLE_ITEMS) : [node];
    for (const item of list) score(item, scores);
  }
  const ranked = TRANSCRIPT_FORMATS.map((f) => [f, scores[f]] as const).sort((a, b) => b[1] - a[1]);
  const [best, second] = ranked;
  if (best === undefined || best[1] === 0 || (second !== undefined && second[1] === best[1])) {
    throw new ImportFailure({
      file,
      code: 'unknown-format',
      line: documents[0]?.node.record.line ?? 1,
      message: `cannot tell which transcript format this is (expected one of: ${TRANSCRIPT_FORMATS.map((f) => `${f} — ${FORMAT_TITLES[f]}`).join('; ')}); name it with --format`,
    });
  }
  return best[0];
}

function score(node: JsonNode, scores: Record<TranscriptFormat, number>): void {
  if (!node.isObject()) return;
  const type = node.tag();
  // a Codex rollout line: `{ timestamp, type, payload }`
  if (type !== undefined && CODEX_LINE_TYPES.has(type) && node.get('payload')?.isObject() === true) scores.codex += 3;
  if (type !== undefined && (DEEPSEEK_EVENT.test(type) || type === 'session')) scores.deepseek += 2;
  if (type !== undefined && OPENAI_ITEMS.has(type)) scores.openai += 2;
  if (node.has('messages') && node.get('messages')?.isArray() === true) scores.anthropic += 2;
  // Chat Completions: replies hold `choices`, tools are `{ type: "function", function }`, histories `tool_calls`
  if (node.get('object')?.value === 'chat.completion' || node.get('object')?.value === 'chat.completion.chunk')
    scores['openai-chat'] += 4;
  if (node.get('choices')?.isArray() === true) scores['openai-chat'] += 2;
  for (const tool of sample(node.get('tools')))
    if (tool.get('function')?.isObject() === true) scores['openai-chat'] += 1;
  for (const message of sample(node.get('messages'))) scoreChatMessage(message, scores);
  if (node.has('role') && !node.has('type')) scoreChatMessage(node, scores);
  if (type === 'message' && node.has('stop_reason')) scores.anthropic += 2;
  if (node.has('input') && (node.has('model') || node.has('tools'))) scores.openai += 1;
  if (node.get('object')?.value === 'response' || (node.has('output') && node.get('output')?.isArray() === true))
    scores.openai += 2;
  for (const key of ['content', 'messages', 'input', 'output']) {
    const inner = node.get(key);
    if (inner === undefined || !inner.isArray()) continue;
    for (const child of inner.items().slice(0, SAMPLE_ITEMS)) {
      const childType = child.tag();
      if (childType === undefined) {
        const content = child.get('content');
        if (content?.isArray() === true)
          for (const block of content.items().slice(0, SAMPLE_ITEMS)) tally(block.tag(), scores);
        continue;
      }
      tally(childType, scores);
    }
  }
  // a bare message: Anthropic content blocks or Responses content parts
  if (node.has('role')) {
    const content = node.get('content');
    if (content?.isArray() === true)
      for (const block of content.items().slice(0, SAMPLE_ITEMS)) tally(block.tag(), scores);
  }
}

// the first items of a list; anything else is no items (detection never fails on a field's shape)
function sample(node: JsonNode | undefined): JsonNode[] {
  return node !== undefined && node.isArray() ? node.items().slice(0, SAMPLE_ITEMS) : [];
}

// `tool_calls` on an assistant message, `role: "tool"` answers: Chat Completions (Anthropic has neither)
function scoreChatMessage(message: JsonNode, scores: Record<TranscriptFormat, number>): void {
  if (!message.isObject()) return;
  if (message.get('tool_calls')?.isArray() === true) scores['openai-chat'] += 3;
  if (message.get('role')?.value === 'tool' && message.has('tool_call_id')) scores['openai-chat'] += 3;
}

function tally(type: string | undefined, scores: Record<TranscriptFormat, number>): void {
  if (type === undefined) return;
  if (ANTHROPIC_BLOCKS.has(type)) scores.anthropic += 1;
  if (OPENAI_ITEMS.has(type) || type === 'input_text' || type === 'output_text') scores.openai += 1;
}
