// OpenAI Chat Completions tool-call histories (and the many APIs that copy them): a program is the `code` argument
// of an assistant `tool_calls` entry whose function runs code (a "code mode" tool such as pydantic-ai's `run_code`,
// an interpreter tool such as `python` or `execute_code`), and the `role: "tool"` message answering that call is
// what the run gave back. The history records the program and its answer, never the tool calls the program made
// inside: those are marked on the cell, not invented.
// Shapes: https://platform.openai.com/docs/api-reference/chat/create (request `messages`, `tools`; response
// `choices[].message.tool_calls`) and docs/import.md.
import type { ApiDocument } from './api-document.js';
import type { JsonNode } from './json-node.js';
import { jsonTextProblem, locate } from './json-records.js';
import { guessLanguage } from './language-guess.js';
import { collectTool, isoTime, newProgram } from './program-builder.js';
import type { Language } from '../protocol/run-result.js';
import type { ExtractedProgram, ExtractedTranscript, ToolDefinition } from './transcript-model.js';
import { isComment, linesOf, textOfContent } from './values.js';

interface Context {
  model?: string;
  responseId?: string;
  createdAt?: string;
}

interface CodeTool {
  // the argument that holds the program
  codeKey: string;
  language?: Language;
  // functions the tool's description says the program can call (`def name(…)` / `function name(…)`)
  functions: string[];
}

// argument names that hold a program, in the order they are looked for
const CODE_KEYS = [
  'code',
  'python_code',
  'source_code',
  'source',
  'script',
  'program',
  'javascript',
  'typescript',
  'js',
];
// function names of tools that run code when their schema is not in the history
const CODE_TOOL_NAME =
  /(^|_)(code|python|py|exec|execute|script|program|interpreter|repl|ipython|javascript|js|eval)(_|$)/i;
const MAX_LISTED_FUNCTIONS = 500;

export function readChat(documents: readonly ApiDocument[], file: string): ExtractedTranscript {
  const tools = new Map<string, ToolDefinition>();
  const codeTools = new Map<string, CodeTool>();
  const calls: { node: JsonNode; context: Context; task?: string }[] = [];
  const answers = new Map<string, JsonNode>();
  const seenCalls = new Set<string>();
  let task: string | undefined;
  const message = (node: JsonNode, context: Context, defaultRole?: string): void => {
    if (isComment(node)) return;
    if (!node.isObject()) throw node.fail('expected a chat message object');
    const role = defaultRole !== undefined && !node.has('role') ? defaultRole : node.str('role');
    if (role === 'user' && task === undefined) task = textOfContent(node.get('content')).text;
    if (role === 'tool') {
      const id = node.str('tool_call_id');
      if (!answers.has(id)) answers.set(id, node);
      return;
    }
    if (role !== 'assistant') return;
    for (const call of node.optArr('tool_calls') ?? []) {
      if (!call.isObject()) throw call.fail('expected a tool call object');
      const id = call.str('id');
      // a logged conversation resends its history with every request: each call is taken once
      if (seenCalls.has(id)) continue;
      seenCalls.add(id);
      calls.push({ node: call, context, ...(task === undefined ? {} : { task }) });
    }
  };
  const visit = (node: JsonNode, base: Context, nested: boolean): void => {
    if (node.isArray() && !nested) {
      for (const item of node.items()) visit(item, base, !item.has('role'));
      return;
    }
    if (isComment(node)) return;
    if (!node.isObject()) throw node.fail('expected a Chat Completions request, response or message');
    const model = node.optStr('model');
    const context: Context = { ...base, ...(model === undefined ? {} : { model }) };
    if (node.has('choices')) {
      const id = node.optStr('id');
      if (id !== undefined) context.responseId = id;
      const created = node.get('created')?.value;
      if (typeof created === 'number' || typeof created === 'string') context.createdAt = isoTime(created);
      for (const choice of node.arr('choices')) {
        const reply = choice.optObj('message') ?? choice.optObj('delta');
        if (reply !== undefined) message(reply, context, 'assistant');
      }
    } else if (node.has('messages')) {
      for (const tool of node.optArr('tools') ?? []) collectChatTool(tool, tools, codeTools);
      for (const item of node.arr('messages')) message(item, context);
    } else if (node.has('role')) {
      message(node, context);
    } else {
      throw node.fail('not a Chat Completions request, response or message (expected "messages", "choices" or "role")');
    }
  };
  for (const document of documents)
    visit(document.node, document.timestamp === undefined ? {} : { createdAt: isoTime(document.timestamp) }, false);

  const programs: ExtractedProgram[] = [];
  for (const { node, context, task: asked } of calls) {
    const fn = node.optObj('function');
    if (fn === undefined) continue;
    const name = fn.str('name');
    const declared = codeTools.get(name);
    if (declared === undefined && (tools.has(`\u0000${name}`) || !CODE_TOOL_NAME.test(name))) continue;
    const args = argumentsOf(fn);
    const codeKey = declared?.codeKey ?? CODE_KEYS.find((k) => typeof args?.get(k)?.value === 'string');
    if (args === undefined || codeKey === undefined) continue;
    const codeNode = args.get(codeKey);
    if (codeNode === undefined || typeof codeNode.value !== 'string') continue;
    const code = codeNode.value;
    const label = args.optStr('language') ?? args.optStr('lang');
    const stated = languageOf(label) ?? declared?.language;
    const language = stated ?? (label === undefined ? guessLanguage(code) : undefined);
    const program = newProgram({
      format: 'openai-chat',
      file,
      line: locate(node.record, node.path).line,
      id: node.str('id'),
      language,
      // a language this playground cannot run (a shell command, R) keeps its name and is shown, not run
      languageLabel: language === undefined ? (label as string) : language === 'python' ? 'python' : 'javascript',
      code,
    });
    if (stated === undefined && language !== undefined) program.languageGuessed = true;
    if (asked !== undefined) program.task = asked;
    if (context.model !== undefined) program.model = context.model;
    if (context.responseId !== undefined) program.ids = { response: context.responseId };
    if (context.createdAt !== undefined) program.timestamps = { created: context.createdAt };
    program.notes.push(`the program is the "${codeKey}" argument of a ${name} tool call`);
    const functions = declared?.functions ?? [];
    // one pass over the code for the names it calls (a hostile description may list hundreds of functions)
    const called = new Set([...code.matchAll(/\b([A-Za-z_]\w*)\s*\(/g)].map((m) => m[1] as string));
    const used = functions.filter((f) => called.has(f));
    if (used.length > 0)
      program.unreproducible.push(
        `it calls ${used.slice(0, 5).join(', ')}${used.length > 5 ? ', …' : ''}, but a Chat Completions history records only the program and the text it returned, not the calls it made: a replay has no recorded answers for them`,
      );
    const answer = answers.get(node.str('id'));
    if (answer === undefined) {
      program.notes.push('the history has no tool message answering this call');
    } else {
      const { text, dropped } = textOfContent(answer.get('content'));
      if (dropped.length > 0)
        program.notes.push(`the answer also held ${dropped.join(', ')} content, which is not compared`);
      program.outcome = { compare: 'text', logs: linesOf(text), modelText: text };
    }
    programs.push(program);
  }
  return { format: 'openai-chat', file, programs, tools: [...tools.values()] };
}

// `{ type: "function", function: { name, description, parameters } }`: a code tool becomes the place programs are
// found in; every other function is a binding the programs may call.
function collectChatTool(node: JsonNode, tools: Map<string, ToolDefinition>, codeTools: Map<string, CodeTool>): void {
  if (!node.isObject()) throw node.fail('expected a tool definition object');
  const fn = node.optObj('function');
  if (fn === undefined) return;
  const name = fn.str('name');
  const description = fn.optStr('description');
  const parameters = fn.get('parameters');
  const properties = parameters?.isObject() === true ? parameters.optObj('properties') : undefined;
  const strings =
    properties === undefined
      ? []
      : Object.keys(properties.value as object).filter((k) => properties.get(k)?.optStr('type') === 'string');
  const codeKey = CODE_KEYS.find((k) => strings.includes(k));
  if (codeKey !== undefined && (CODE_TOOL_NAME.test(name) || strings.length === 1)) {
    const text = `${name} ${description ?? ''}`;
    const language = /\bpython\b/i.test(text)
      ? 'python'
      : /\b(java|type)script\b/i.test(text)
        ? 'typescript'
        : undefined;
    codeTools.set(name, {
      codeKey,
      ...(language === undefined ? {} : { language }),
      functions: listedFunctions(description ?? ''),
    });
    return;
  }
  collectTool(tools, { name, description, input: parameters });
}

// The functions a code tool's description offers the program (`def arbitrary_query(query: str, age: int) -> Any:`).
function listedFunctions(description: string): string[] {
  const names = new Set<string>();
  for (const match of description.matchAll(/^[ \t]*(?:async[ \t]+)?(?:def|function)[ \t]+([A-Za-z_]\w*)[ \t]*\(/gm)) {
    names.add(match[1] as string);
    if (names.size >= MAX_LISTED_FUNCTIONS) break;
  }
  return [...names];
}

// `arguments` is the model's JSON text (some logs keep the parsed object); text that is not a JSON object has no code
function argumentsOf(fn: JsonNode): JsonNode | undefined {
  const raw = fn.get('arguments');
  if (raw === undefined) return undefined;
  if (raw.isObject()) return raw;
  if (typeof raw.value !== 'string' || jsonTextProblem(raw.value) !== undefined) return undefined;
  const parsed = fn.embedded('arguments');
  return parsed.isObject() ? parsed : undefined;
}

function languageOf(label: string | undefined): Language | undefined {
  if (label === undefined) return undefined;
  if (/^(python|py|python3)$/i.test(label)) return 'python';
  if (/^(javascript|js|typescript|ts|node)$/i.test(label)) return 'typescript';
  return undefined;
}
