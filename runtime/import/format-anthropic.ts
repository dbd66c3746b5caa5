// Anthropic Messages API with programmatic tool calling: `server_tool_use` code-execution blocks are the programs,
// `tool_use` blocks whose `caller` names that block are its tool calls, `tool_result` blocks their answers, and the
// `code_execution_tool_result` block what the run printed.
// Shapes: https://platform.claude.com/docs/en/agents-and-tools/tool-use/programmatic-tool-calling and
// https://platform.claude.com/docs/en/agents-and-tools/tool-use/code-execution-tool (see docs/import.md).
import type { ApiDocument } from './api-document.js';
import type { JsonNode } from './json-node.js';
import { linkContainerState } from './container-state.js';
import { locate } from './json-records.js';
import { answerOutcome, collectTool, isoTime, newProgram, noteUnanswered, programOfCall } from './program-builder.js';
import type {
  ExtractedProgram,
  ExtractedTranscript,
  RecordedCall,
  RecordedOutcome,
  ToolDefinition,
} from './transcript-model.js';
import { isComment, jsonValueOf, linesOf } from './values.js';

interface Context {
  model?: string;
  messageId?: string;
  container?: string;
  timestamp?: string;
}

interface Block {
  node: JsonNode;
  role: string;
  context: Context;
}

const PROGRAM_TOOLS = new Set(['code_execution']);
const RESULT_TYPES = new Set(['code_execution_tool_result', 'bash_code_execution_tool_result']);
// web_fetch_tool_result, web_search_tool_result, …: a server tool's answer
const SERVER_TOOL_RESULT = /^[a-z_]+_tool_result$/;

// a block whose `caller` is a code execution: a call the program made, not the model
function isProgramCaller(node: JsonNode): boolean {
  return node.optObj('caller')?.tag()?.startsWith('code_execution') === true;
}

export function readAnthropic(documents: readonly ApiDocument[], file: string): ExtractedTranscript {
  const tools = new Map<string, ToolDefinition>();
  const blocks: Block[] = [];
  const seen = new Set<string>();
  const pushMessage = (message: JsonNode, context: Context, defaultRole?: string): void => {
    const role = defaultRole !== undefined && !message.has('role') ? defaultRole : message.str('role');
    const content = message.get('content');
    if (content === undefined) throw message.fail('missing required field "content"');
    if (typeof content.value === 'string') {
      blocks.push({ node: content, role, context });
      return;
    }
    for (const block of content.items()) {
      if (!block.isObject()) throw block.fail('expected a content block object');
      const type = block.tag();
      if (type === undefined) throw block.fail('content block without a "type"');
      const id =
        type === 'tool_use' || type === 'server_tool_use' ? block.get('id')?.value : block.get('tool_use_id')?.value;
      // a logged conversation repeats its history in every request: each block with an id is taken once
      if (typeof id === 'string') {
        const key = `${type}\u0000${id}`;
        if (seen.has(key)) continue;
        seen.add(key);
      }
      blocks.push({ node: block, role, context });
    }
  };
  const visit = (node: JsonNode, time: { timestamp?: string }, nested: boolean): void => {
    if (node.isArray() && !nested) {
      // a list of messages, or a list of requests and responses
      for (const item of node.items()) {
        if (isComment(item)) continue;
        if (item.has('messages') || (item.has('content') && item.tag() === 'message')) visit(item, time, true);
        else pushMessage(item, { ...time });
      }
      return;
    }
    if (!node.isObject()) throw node.fail('expected an Anthropic Messages request, response or message object');
    const model = node.optStr('model');
    const context: Context = { ...time, ...(model === undefined ? {} : { model }) };
    if (node.has('messages')) {
      for (const tool of node.optArr('tools') ?? []) collectAnthropicTool(tool, tools);
      const container = node.get('container');
      const containerId = typeof container?.value === 'string' ? container.value : container?.optStr('id');
      if (containerId !== undefined) context.container = containerId;
      for (const message of node.arr('messages')) pushMessage(message, context);
    } else if (node.has('content') && (node.tag() === 'message' || node.has('role'))) {
      const id = node.optStr('id');
      if (id !== undefined) context.messageId = id;
      const containerId = node.optObj('container')?.optStr('id');
      if (containerId !== undefined) context.container = containerId;
      pushMessage(node, context, 'assistant');
    } else {
      throw node.fail(
        'not an Anthropic Messages request, response or message (expected "messages", or "role" and "content")',
      );
    }
  };
  for (const document of documents)
    visit(document.node, document.timestamp === undefined ? {} : { timestamp: document.timestamp }, false);
  return { format: 'anthropic', file, programs: extractPrograms(blocks, file), tools: [...tools.values()] };
}

function collectAnthropicTool(node: JsonNode, tools: Map<string, ToolDefinition>): void {
  if (!node.isObject()) throw node.fail('expected a tool definition object');
  const type = node.tag();
  // server tools (code execution, web search) carry a dated `type` and no schema; they are not bindings
  if (type !== undefined && type !== 'custom') return;
  // only tools a program may call are bindings (`allowed_callers` defaults to ["direct"])
  const callers = (node.optArr('allowed_callers') ?? []).map((c) => c.value);
  if (!callers.some((c) => typeof c === 'string' && c.startsWith('code_execution'))) return;
  collectTool(tools, {
    name: node.str('name'),
    description: node.optStr('description'),
    input: node.get('input_schema'),
  });
}

function extractPrograms(blocks: readonly Block[], file: string): ExtractedProgram[] {
  const programs = new Map<string, ExtractedProgram>();
  const calls = new Map<string, RecordedCall>();
  let task: string | undefined;
  const programFor = (id: string, at: JsonNode, context: Context): ExtractedProgram =>
    programOfCall(programs, id, at, {
      format: 'anthropic',
      file,
      language: 'python',
      languageLabel: 'python',
      reason: `the transcript has tool calls from code execution ${id} but not its program text`,
      decorate: (program) => decorate(program, context, task),
    });
  for (const { node, role, context } of blocks) {
    if (typeof node.value === 'string') {
      if (role === 'user') task = node.value;
      continue;
    }
    const type = node.tag();
    if (type === 'text') {
      if (role === 'user') task = node.str('text');
    } else if (type === 'server_tool_use' && isProgramCaller(node)) {
      // a server tool (web_fetch, web_search) the program called: the platform answered it, the transcript kept the
      // answer
      const program = programFor(node.obj('caller').str('tool_id'), node, context);
      const input = node.get('input');
      const call: RecordedCall = {
        tool: node.str('name'),
        args: input === undefined ? {} : jsonValueOf(input),
        outcome: { kind: 'unanswered' },
        id: node.str('id'),
        notes: [],
      };
      program.calls.push(call);
      calls.set(call.id as string, call);
    } else if (
      type !== undefined &&
      SERVER_TOOL_RESULT.test(type) &&
      !RESULT_TYPES.has(type) &&
      calls.has(node.optStr('tool_use_id') ?? '')
    ) {
      const call = calls.get(node.str('tool_use_id')) as RecordedCall;
      const content = node.get('content');
      const errorCode =
        content?.isObject() === true && /_error$/.test(content.tag() ?? '')
          ? (content.optStr('error_code') ?? 'unknown')
          : undefined;
      call.outcome =
        errorCode !== undefined
          ? { kind: 'error', message: `${call.tool} error: ${errorCode}` }
          : { kind: 'ok', value: content === undefined ? null : jsonValueOf(content) };
    } else if (type === 'server_tool_use') {
      const name = node.str('name');
      const id = node.str('id');
      const input = node.optObj('input');
      const line = locate(node.record, node.path).line;
      if (PROGRAM_TOOLS.has(name) || input?.has('code') === true) {
        const program = newProgram({
          format: 'anthropic',
          file,
          line,
          id,
          language: 'python',
          languageLabel: 'python',
          code: input?.optStr('code'),
        });
        program.adapter = 'anthropic-python';
        if (program.code === undefined)
          program.unreproducible.push('the code execution block has no program text (input.code)');
        decorate(program, context, task);
        programs.set(id, program);
      } else if (name === 'bash_code_execution') {
        const program = newProgram({
          format: 'anthropic',
          file,
          line,
          id,
          language: undefined,
          languageLabel: 'bash',
          code: input?.optStr('command'),
        });
        program.unreproducible.push('a bash command: only TypeScript and Python programs run here');
        decorate(program, context, task);
        programs.set(id, program);
      }
    } else if (type === 'tool_use') {
      const caller = node.optObj('caller');
      if (caller === undefined || !isProgramCaller(node)) continue;
      const program = programFor(caller.str('tool_id'), node, context);
      const input = node.get('input');
      if (input === undefined) throw node.fail('tool_use block without "input"');
      const call: RecordedCall = {
        tool: node.str('name'),
        args: jsonValueOf(input),
        outcome: { kind: 'unanswered' },
        id: node.str('id'),
        notes: [],
      };
      program.calls.push(call);
      calls.set(call.id as string, call);
    } else if (type === 'tool_result') {
      const call = calls.get(node.str('tool_use_id'));
      if (call === undefined) continue;
      call.outcome = answerOutcome(call, node, { content: 'content', isError: 'is_error' });
    } else if (type !== undefined && RESULT_TYPES.has(type)) {
      const program = programs.get(node.str('tool_use_id'));
      if (program !== undefined) program.outcome = outcomeOf(node.obj('content'), program);
    }
  }
  const list = [...programs.values()];
  for (const program of list) noteUnanswered(program);
  linkContainerState(list);
  return list;
}

function decorate(program: ExtractedProgram, context: Context, task: string | undefined): void {
  if (task !== undefined) program.task = task;
  if (context.model !== undefined) program.model = context.model;
  const ids: Record<string, string> = {};
  if (context.messageId !== undefined) ids.message = context.messageId;
  if (context.container !== undefined) ids.container = context.container;
  if (Object.keys(ids).length > 0) program.ids = ids;
  if (context.timestamp !== undefined) program.timestamps = { logged: isoTime(context.timestamp) };
}

// stdout is what the model read; a non-zero return code is the run failing (its traceback is in stderr)
function outcomeOf(content: JsonNode, program: ExtractedProgram): RecordedOutcome {
  const type = content.tag();
  if (
    type === 'code_execution_result' ||
    type === 'bash_code_execution_result' ||
    type === 'encrypted_code_execution_result'
  ) {
    const stderr = content.optStr('stderr') ?? '';
    const returnCode = content.optNum('return_code') ?? 0;
    const encrypted = type === 'encrypted_code_execution_result';
    const stdout = encrypted ? '' : (content.optStr('stdout') ?? '');
    const logs = linesOf(stdout);
    const outcome: RecordedOutcome = { compare: 'stdout', logs, modelText: stdout };
    if (returnCode !== 0)
      outcome.error = {
        kind: 'exception',
        message: stderr.trim() === '' ? `the program exited with return code ${returnCode}` : stderr.trimEnd(),
      };
    else if (stderr !== '') {
      const extra = linesOf(stderr);
      outcome.stderrLogs = extra.map((_, i) => logs.length + i);
      outcome.logs = [...logs, ...extra];
    }
    if (encrypted)
      outcome.skipped = 'the transcript stores this program’s stdout encrypted, so printed output cannot be compared';
    if ((content.optArr('content') ?? []).length > 0)
      program.notes.push('the code execution also produced files, which are not imported');
    return outcome;
  }
  if (type === 'code_execution_tool_result_error' || type === 'bash_code_execution_tool_result_error') {
    const code = content.optStr('error_code') ?? 'unknown';
    if (code === 'execution_time_exceeded')
      return { compare: 'stdout', logs: [], error: { kind: 'timeout', message: 'code execution time exceeded' } };
    program.unreproducible.push(
      `the code execution ended with the error "${code}" rather than the program's own output`,
    );
    return {
      compare: 'stdout',
      logs: [],
      error: { kind: 'exception', message: `code execution error: ${code}` },
      skipped: `the platform reported "${code}"`,
    };
  }
  throw content.fail(`unknown code execution result type ${JSON.stringify(type ?? null)}`);
}
