// OpenAI Responses API with programmatic tool calling: a `program` item holds the JavaScript the model wrote,
// `function_call` / `custom_tool_call` items whose `caller` is `{ type: "program", caller_id }` are its tool calls,
// `*_output` items their answers, and the `program_output` item its result.
// Shapes: https://developers.openai.com/api/docs/guides/tools-programmatic-tool-calling and the SDK references
// listed in docs/import.md.
import type { ApiDocument } from './api-document.js';
import type { JsonNode } from './json-node.js';
import { jsonTextProblem, locate } from './json-records.js';
import type { JsonValue } from '../protocol/json-value.js';
import { answerOutcome, collectTool, isoTime, newProgram, noteUnanswered, programOfCall } from './program-builder.js';
import { linkContainerState } from './container-state.js';
import type {
  ExtractedProgram,
  ExtractedTranscript,
  RecordedCall,
  RecordedOutcome,
  ToolDefinition,
} from './transcript-model.js';
import { isComment, jsonValueOf, linesOf, textOfContent } from './values.js';

interface Context {
  model?: string;
  responseId?: string;
  createdAt?: string;
}

interface Item {
  node: JsonNode;
  context: Context;
}

const CALL_TYPES = new Set(['function_call', 'custom_tool_call']);
const OUTPUT_TYPES = new Set(['function_call_output', 'custom_tool_call_output']);

export function readOpenAi(documents: readonly ApiDocument[], file: string): ExtractedTranscript {
  const tools = new Map<string, ToolDefinition>();
  const items: Item[] = [];
  const seen = new Set<string>();
  const push = (item: JsonNode, context: Context): void => {
    if (!item.isObject()) throw item.fail('expected an input or output item object');
    const type = item.tag() ?? (item.has('role') ? 'message' : undefined);
    if (type === undefined) throw item.fail('item without a "type"');
    const id = item.get('call_id')?.value ?? item.get('id')?.value;
    // logged requests resend earlier items: each item with an id is taken once
    if (typeof id === 'string') {
      const key = `${type}\u0000${id}`;
      if (seen.has(key)) return;
      seen.add(key);
    }
    items.push({ node: item, context });
  };
  const visit = (node: JsonNode, base: Context, nested: boolean): void => {
    if (node.isArray() && !nested) {
      // a list of items, or a list of requests and responses
      for (const item of node.items()) {
        if (isComment(item)) continue;
        if (isResponse(item) || isRequest(item)) visit(item, base, true);
        else push(item, base);
      }
      return;
    }
    if (!node.isObject()) throw node.fail('expected an OpenAI Responses request, response or item object');
    const model = node.optStr('model');
    const context: Context = { ...base, ...(model === undefined ? {} : { model }) };
    if (isResponse(node)) {
      const id = node.optStr('id');
      if (id !== undefined) context.responseId = id;
      const created = node.get('created_at')?.value;
      if (typeof created === 'number' || typeof created === 'string') context.createdAt = isoTime(created);
      for (const item of node.arr('output')) push(item, context);
    } else if (isRequest(node)) {
      for (const tool of node.optArr('tools') ?? []) collectOpenAiTool(tool, tools);
      const input = node.get('input') as JsonNode;
      if (typeof input.value === 'string') items.push({ node: input, context });
      else for (const item of input.items()) push(item, context);
    } else if (node.has('type') || node.has('role')) {
      push(node, context);
    } else {
      throw node.fail('not an OpenAI Responses request, response or item (expected "input", "output" or "type")');
    }
  };
  for (const document of documents)
    visit(document.node, document.timestamp === undefined ? {} : { createdAt: isoTime(document.timestamp) }, false);
  return { format: 'openai', file, programs: extractPrograms(items, file), tools: [...tools.values()] };
}

// items carry a `type` (or a `role`); requests and responses do not
const isResponse = (node: JsonNode): boolean =>
  node.get('object')?.value === 'response' || (!node.has('type') && node.get('output')?.isArray() === true);
const isRequest = (node: JsonNode): boolean => !node.has('type') && !node.has('role') && node.has('input');

function collectOpenAiTool(node: JsonNode, tools: Map<string, ToolDefinition>): void {
  if (!node.isObject()) throw node.fail('expected a tool definition object');
  const type = node.tag();
  // only tools a program may call are bindings (`allowed_callers` defaults to ["direct"])
  if (!(node.optArr('allowed_callers') ?? []).some((c) => c.value === 'programmatic')) return;
  if (type === 'function')
    collectTool(tools, {
      name: node.str('name'),
      description: node.optStr('description'),
      input: node.get('parameters'),
    });
  // a custom tool takes free-form text: its argument is that string
  else if (type === 'custom') collectTool(tools, { name: node.str('name'), description: node.optStr('description') });
}

function extractPrograms(items: readonly Item[], file: string): ExtractedProgram[] {
  const programs = new Map<string, ExtractedProgram>();
  const calls = new Map<string, RecordedCall>();
  let task: string | undefined;
  const programFor = (callerId: string, at: JsonNode, context: Context): ExtractedProgram =>
    programOfCall(programs, callerId, at, {
      format: 'openai',
      file,
      language: 'typescript',
      languageLabel: 'javascript',
      reason: `the transcript has tool calls from program ${callerId} but not its program item`,
      decorate: (program) => decorate(program, context, task),
    });
  for (const { node, context } of items) {
    if (typeof node.value === 'string') {
      task = node.value;
      continue;
    }
    const type = node.tag() ?? 'message';
    if (type === 'message') {
      if (node.optStr('role') === 'user') task = textOfContent(node.get('content')).text;
    } else if (type === 'code_interpreter_call') {
      // a code interpreter run: Python in a container the model's later runs share
      const program = newProgram({
        format: 'openai',
        file,
        line: locate(node.record, node.path).line,
        id: node.str('id'),
        language: 'python',
        languageLabel: 'python',
        code: node.optStr('code'),
      });
      if (program.code === undefined) program.unreproducible.push('the code interpreter call has no code');
      decorate(program, context, task);
      const container = node.optStr('container_id');
      if (container !== undefined) program.ids = { ...program.ids, container };
      program.outcome = interpreterOutcome(node, program);
      programs.set(node.str('id'), program);
    } else if (type === 'program') {
      const callId = node.optStr('call_id') ?? node.str('id');
      const program = newProgram({
        format: 'openai',
        file,
        line: locate(node.record, node.path).line,
        id: callId,
        language: 'typescript',
        languageLabel: 'javascript',
        code: node.optStr('code'),
      });
      program.adapter = 'openai-javascript';
      if (program.code === undefined) program.unreproducible.push('the program item has no code');
      const itemId = node.optStr('id');
      decorate(program, context, task);
      if (itemId !== undefined) program.ids = { ...program.ids, item: itemId };
      programs.set(callId, program);
      if (itemId !== undefined && itemId !== callId) programs.set(itemId, program);
      // an output that repeats its call's `caller` answers that call: it is not a call of its own
    } else if (OUTPUT_TYPES.has(type)) {
      const call = calls.get(node.str('call_id'));
      if (call === undefined) continue;
      call.outcome = answerOutcome(call, node, { content: 'output' });
    } else if (CALL_TYPES.has(type) || node.optObj('caller')?.tag() === 'program') {
      const caller = node.optObj('caller');
      if (caller?.tag() !== 'program') continue;
      const program = programFor(caller.str('caller_id'), node, context);
      if (!CALL_TYPES.has(type)) {
        program.unreproducible.push(`the program made a ${type} call, which cannot be replayed as a binding call`);
        continue;
      }
      const notes: string[] = [];
      const call: RecordedCall = {
        tool: node.str('name'),
        args: argumentsOf(node, type, notes),
        outcome: { kind: 'unanswered' },
        id: node.str('call_id'),
        notes,
      };
      program.calls.push(call);
      calls.set(call.id as string, call);
    } else if (type === 'program_output') {
      const program = programs.get(node.str('call_id'));
      if (program === undefined) continue;
      const result = node.optStr('result') ?? '';
      program.outcome = { compare: 'text', logs: linesOf(result), modelText: result };
      const status = node.optStr('status');
      if (status !== undefined && status !== 'completed')
        program.notes.push(`the program output's status was "${status}"`);
    }
  }
  const list = [...new Set(programs.values())];
  for (const program of list) noteUnanswered(program);
  linkContainerState(list);
  return list;
}

// The logs a code interpreter run showed; like a notebook cell it also shows a final expression's value, which a
// replay (printing only what the program prints) does not.
function interpreterOutcome(node: JsonNode, program: ExtractedProgram): RecordedOutcome {
  const outputs = node.get('outputs');
  if (outputs === undefined || !outputs.isArray()) {
    return {
      compare: 'stdout',
      logs: [],
      skipped: 'the recording does not include the run’s outputs (ask for include: ["code_interpreter_call.outputs"])',
    };
  }
  let text = '';
  for (const output of outputs.items()) {
    if (output.tag() === 'logs') text += output.optStr('logs') ?? '';
    else program.notes.push(`the run also produced ${output.tag() ?? 'unknown'} output, which is not imported`);
  }
  const lastLine =
    (program.code ?? '')
      .split('\n')
      .filter((l) => l.trim() !== '' && !l.trimStart().startsWith('#'))
      .at(-1) ?? '';
  if (
    /^[^\s=]/.test(lastLine) &&
    !/^(?:print\(|import |from |def |class |if |for |while |with |try|return|raise|assert|[A-Za-z_][\w.]*\s*(?:[-+*/%]?=|:))/.test(
      lastLine,
    )
  )
    program.notes.push(
      'its last line is an expression, whose value the code interpreter shows as a notebook does; a replay shows only what the program prints',
    );
  return { compare: 'stdout', logs: linesOf(text), modelText: text };
}

// function_call arguments are JSON text (some logs store the parsed object); a custom tool's input is the text itself
function argumentsOf(node: JsonNode, type: string, notes: string[]): JsonValue {
  if (type === 'custom_tool_call') return node.str('input');
  const raw = node.get('arguments');
  if (raw === undefined) throw node.fail('function_call without "arguments"');
  if (typeof raw.value !== 'string') return jsonValueOf(raw);
  if (jsonTextProblem(raw.value) !== undefined) {
    notes.push('its arguments were not valid JSON; they are kept as the raw text');
    return raw.value;
  }
  return jsonValueOf(node.embedded('arguments'));
}

function decorate(program: ExtractedProgram, context: Context, task: string | undefined): void {
  if (task !== undefined) program.task = task;
  if (context.model !== undefined) program.model = context.model;
  if (context.responseId !== undefined) program.ids = { ...program.ids, response: context.responseId };
  if (context.createdAt !== undefined) program.timestamps = { created: context.createdAt };
}
