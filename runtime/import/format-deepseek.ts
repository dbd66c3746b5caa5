// deepseek-harness session logs (the lineage this project descends from): a `tool/call` event for `run_code` holds
// the program (`arguments` is the model's JSON text with `code` and `description`), `tool/ptc-dispatch-start` /
// `tool/ptc-dispatch` events (`tool/code-dispatch*` before the rename) are the calls it made, with sub-call ids
// `<callId>:ptc:<n>`, and the `tool/result` event for the call holds the text the model read back.
// Source: /work/shared/reference/code-runtime-reference.md §0 and §2.4, and docs/import.md.
import { FAILURE_KINDS, type FailureKind, type Language } from '../protocol/run-result.js';
import type { ApiDocument } from './api-document.js';
import type { JsonNode } from './json-node.js';
import { locate } from './json-records.js';
import { guessLanguage } from './language-guess.js';
import { answerOutcome, isoTime, newProgram, noteUnanswered, programOfCall } from './program-builder.js';
import type { ExtractedProgram, ExtractedTranscript, RecordedCall, RecordedOutcome } from './transcript-model.js';
import { isComment, jsonValueOf, linesOf, textOfContent, valueFromToolText } from './values.js';

export const RUN_CODE_TOOL = 'run_code';
export const EMPTY_RUN_CODE_TEXT = '(run_code completed with no output)';

const START_EVENTS = new Set(['tool/ptc-dispatch-start', 'tool/code-dispatch-start']);
const SETTLE_EVENTS = new Set(['tool/ptc-dispatch', 'tool/code-dispatch']);
const SUB_CALL = /^(.*):(?:ptc|code):(\d+)$/;

interface PendingCall {
  call: RecordedCall;
  order: number;
  startedAt?: number;
}

export interface DeepseekOptions {
  // the language of every program (the log does not record which runtime ran them)
  language?: Language;
}

export function readDeepseek(
  documents: readonly ApiDocument[],
  file: string,
  options: DeepseekOptions = {},
): ExtractedTranscript {
  const events: JsonNode[] = [];
  for (const document of documents) {
    if (document.node.isArray()) events.push(...document.node.items().filter((item) => !isComment(item)));
    else events.push(document.node);
  }
  const programs = new Map<string, ExtractedProgram>();
  const calls = new Map<string, PendingCall>();
  let task: string | undefined;
  let model: string | undefined;
  let order = 0;
  const programFor = (callId: string, at: JsonNode): ExtractedProgram =>
    programOfCall(programs, callId, at, {
      format: 'deepseek',
      file,
      language: options.language ?? 'typescript',
      languageLabel: options.language ?? 'typescript',
      reason: `the log has tool calls from run_code call ${callId} but not the run_code call itself`,
    });
  for (const event of events) {
    if (!event.isObject()) throw event.fail('expected a session event object { type, data }');
    const type = event.str('type');
    const data = event.optObj('data');
    const time = timeOf(event);
    const eventModel = data?.get('model')?.value ?? event.get('model')?.value;
    if (typeof eventModel === 'string') model = eventModel;
    if (type === 'user/message') {
      const text = data === undefined ? undefined : userText(data);
      if (text !== undefined) task = text;
    } else if (type === 'tool/call') {
      if (data === undefined) throw event.fail('tool/call event without "data"');
      if (data.optStr('name') !== RUN_CODE_TOOL) continue;
      const callId = idOf(data, 'callId');
      const args = argumentsNode(data);
      const code = args?.optStr('code');
      const language = options.language ?? (code === undefined ? 'typescript' : guessLanguage(code));
      const program = newProgram({
        format: 'deepseek',
        file,
        line: locate(event.record, event.path).line,
        id: callId,
        language,
        languageLabel: language,
        code,
      });
      if (options.language === undefined && code !== undefined) program.languageGuessed = true;
      if (code === undefined) program.unreproducible.push('the run_code call has no "code" argument');
      const description = args?.optStr('description');
      if (description !== undefined) program.notes.push(`described by the model as: ${description}`);
      if (task !== undefined) program.task = task;
      if (model !== undefined) program.model = model;
      if (time !== undefined) program.timestamps = { called: isoTime(time) };
      const turn = data.get('turn')?.value;
      const step = data.get('step')?.value;
      program.ids = {
        callId,
        ...(typeof turn === 'number' ? { turn: String(turn) } : {}),
        ...(typeof step === 'number' ? { step: String(step) } : {}),
      };
      programs.set(callId, program);
    } else if (START_EVENTS.has(type) || SETTLE_EVENTS.has(type)) {
      if (data === undefined) throw event.fail(`${type} event without "data"`);
      const subCallId = idOf(data, 'subCallId');
      let pending = calls.get(subCallId);
      if (pending === undefined) {
        const parent = data.optStr('parentCallId') ?? SUB_CALL.exec(subCallId)?.[1];
        if (parent === undefined)
          throw data.fail(
            `cannot tell which run_code call sub-call ${JSON.stringify(subCallId)} belongs to (no parentCallId)`,
          );
        const args = data.get('arguments');
        const call: RecordedCall = {
          tool: data.str('name'),
          args: args === undefined ? null : argumentValue(args),
          outcome: { kind: 'unanswered' },
          id: subCallId,
          notes: [],
        };
        pending = {
          call,
          order: Number(SUB_CALL.exec(subCallId)?.[2] ?? order),
          ...(time === undefined ? {} : { startedAt: time }),
        };
        order++;
        calls.set(subCallId, pending);
        programFor(parent, event).calls.push(call);
      }
      if (SETTLE_EVENTS.has(type)) {
        pending.call.outcome = answerOutcome(pending.call, data, { content: 'content', isError: 'isError' });
        if (time !== undefined && pending.startedAt !== undefined && time >= pending.startedAt)
          pending.call.durationMs = time - pending.startedAt;
      }
    } else if (type === 'tool/result') {
      if (data === undefined) continue;
      const found = resultFor(data, programs);
      if (found !== undefined) found.program.outcome = outcomeOfText(found.text);
    }
  }
  const list = [...programs.values()];
  for (const program of list) {
    // sub-call ids number the calls in the order the program issued them
    const rank = new Map(program.calls.map((c) => [c, calls.get(c.id as string)?.order ?? 0]));
    program.calls.sort((a, b) => (rank.get(a) as number) - (rank.get(b) as number));
    noteUnanswered(program);
  }
  return {
    format: 'deepseek',
    file,
    programs: list,
    tools: [],
    errorClass: { name: 'ToolCallError', memberNameProperty: 'toolName' },
  };
}

function timeOf(event: JsonNode): number | undefined {
  const raw = event.get('time')?.value;
  if (typeof raw === 'number' && Number.isFinite(raw)) return raw;
  if (typeof raw === 'string') {
    const ms = Date.parse(raw);
    return Number.isNaN(ms) ? undefined : ms;
  }
  return undefined;
}

function idOf(data: JsonNode, key: string): string {
  const node = data.get(key);
  if (node === undefined) throw data.fail(`missing required field "${key}"`);
  if (typeof node.value === 'string' && node.value !== '') return node.value;
  if (typeof node.value === 'number' && Number.isFinite(node.value)) return String(node.value);
  throw node.fail('expected a call id (a string or a number)');
}

// run_code's `arguments` is the model's raw JSON text; some logs keep the parsed object
function argumentsNode(data: JsonNode): JsonNode | undefined {
  const raw = data.get('arguments');
  if (raw === undefined || raw.value === null) return undefined;
  if (typeof raw.value === 'string') {
    const parsed = data.embedded('arguments');
    if (!parsed.isObject()) throw parsed.fail('expected the run_code arguments object { code, description }');
    return parsed;
  }
  if (!raw.isObject()) throw raw.fail('expected the run_code arguments object { code, description }');
  return raw;
}

// dispatch `arguments` are the normalised object the tool received (older logs: JSON text)
function argumentValue(node: JsonNode) {
  if (typeof node.value === 'string') {
    const text = node.value;
    const value = valueFromToolText(text);
    return value;
  }
  return jsonValueOf(node);
}

function userText(data: JsonNode): string | undefined {
  const content = data.get('content') ?? data.optObj('message')?.get('content');
  if (content !== undefined) return textOfContent(content).text;
  return data.optStr('text');
}

// The tool-result text of a run_code call: in the result message's parts, or directly on the event.
function resultFor(
  data: JsonNode,
  programs: Map<string, ExtractedProgram>,
): { program: ExtractedProgram; text: string } | undefined {
  const message = data.optObj('message');
  const sourceId = message?.optObj('source')?.get('callId')?.value ?? data.get('callId')?.value;
  const parts = message?.get('content') ?? data.get('content');
  if (parts !== undefined && parts.isArray()) {
    for (const part of parts.items()) {
      if (!part.isObject() || part.tag() !== 'tool-result') continue;
      const id = part.get('toolCallId')?.value ?? sourceId;
      const program = typeof id === 'string' || typeof id === 'number' ? programs.get(String(id)) : undefined;
      if (program !== undefined)
        return { program, text: textOfContent(part.get('content') ?? part.get('output')).text };
    }
  }
  const program =
    typeof sourceId === 'string' || typeof sourceId === 'number' ? programs.get(String(sourceId)) : undefined;
  if (program === undefined || parts === undefined) return undefined;
  return { program, text: textOfContent(parts).text };
}

// The harness renders a run as its logs then its value, or `code run failed (<kind>): <message>` and the
// captured output; the failure form is split back into its parts, the success form is kept as text.
export function outcomeOfText(text: string): RecordedOutcome {
  const failed = /^code run failed \(([a-z-]+)\): /.exec(text);
  if (failed !== null) {
    const rest = text.slice(failed[0].length);
    const split = rest.indexOf('\n\nCaptured output:\n');
    const message = split === -1 ? rest : rest.slice(0, split);
    const logs = split === -1 ? [] : linesOf(rest.slice(split + '\n\nCaptured output:\n'.length));
    const kind = (FAILURE_KINDS as readonly string[]).includes(failed[1] as string)
      ? (failed[1] as FailureKind)
      : 'exception';
    return { compare: 'model-text', logs, error: { kind, message }, modelText: text };
  }
  return { compare: 'model-text', logs: text === EMPTY_RUN_CODE_TEXT ? [] : linesOf(text), modelText: text };
}
