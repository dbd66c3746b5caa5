import { languageScores } from '../import/language-guess.js';
import { runCodeText } from '../import/model-text.js';
import type { JsonValue } from '../protocol/json-value.js';
import type { Language, RunResult } from '../protocol/run-result.js';
import type {
  ChatMessage,
  ChatProgress,
  ChatReply,
  ModelClient,
  ModelFailureKind,
  ModelOptions,
  TokenUsage,
  ToolCall,
  ToolResult,
} from './chat-types.js';
import { RUN_CODE_TOOL, type ModelView } from './model-view.js';
import { partialStringField } from './stream-replies.js';

// A program the loop wants run: a run_code program (code mode) or a one-call program for a tool (direct mode).
export interface LoopProgram {
  // 1-based turn that asked for it, and its position among that turn's tool calls
  turn: number;
  index: number;
  // `turn-2` or `turn-2-1` when one reply asked for several
  id: string;
  language: Language;
  source: string;
  description?: string;
  // direct mode: the binding the model called
  tool?: { global: string; name: string; args: JsonValue };
}

export type ProgramRun = { kind: 'result'; result: RunResult } | { kind: 'not-run'; message: string };

export interface LoopStep {
  program: LoopProgram;
  run: ProgramRun;
  // exactly what went back to the model
  text: string;
  isError: boolean;
}

export interface LoopTurn {
  index: number;
  reply: ChatReply;
  steps: LoopStep[];
  // tool calls that never became a program (unknown tool, bad arguments, wrong language), as sent back
  refused: { call: ToolCall; message: string }[];
}

// answered: a reply without tool calls; turn-limit: the last allowed turn still asked for tools;
// model-failed: the API failed or its reply was unusable; aborted: cancelled.
export type LoopStatus = 'answered' | 'turn-limit' | 'model-failed' | 'aborted';

export interface LoopOutcome {
  status: LoopStatus;
  answer?: string;
  message?: string;
  failure?: ModelFailureKind;
  turns: LoopTurn[];
  usage: TokenUsage;
  // model time only, summed over turns
  latencyMs: number;
}

export interface LoopOptions {
  client: ModelClient;
  view: ModelView;
  // model replies allowed; the loop ends after this many even if the model still calls tools
  maxTurns: number;
  maxTokens?: number;
  // temperature, seed, reasoning effort, thinking budget, tool choice; `modelOptions.maxTokens` is used when maxTokens
  // is not set
  modelOptions?: ModelOptions;
  // applied to every tool result before it goes back to the model (e.g. to keep host paths out of it)
  sanitize?: (text: string) => string;
  // cap on the text of one tool result sent back (the rest is cut with a note, as harnesses do)
  maxResultChars?: number;
  runProgram: (program: LoopProgram) => Promise<ProgramRun>;
  signal?: AbortSignal;
  // set: each reply is streamed, and what has arrived of it is reported as it comes
  onProgress?: (turn: number, progress: ChatProgress) => void;
  // after each model reply, before its programs run
  onReply?: (turn: number, reply: ChatReply) => void | Promise<void>;
  onStep?: (step: LoopStep) => void | Promise<void>;
}

export const DEFAULT_MAX_TOKENS = 4096;
export const DEFAULT_MAX_RESULT_CHARS = 100_000;
// a program the model writes is bounded like any other input
const MAX_PROGRAM_CHARS = 1_000_000;

// The agent loop a harness runs: the model view and task go out, each program's result (as the model would read
// it) comes back, until a final answer or the turn limit.
export async function runAgentLoop(options: LoopOptions): Promise<LoopOutcome> {
  const { client, view } = options;
  const messages: ChatMessage[] = [{ role: 'user', text: view.task }];
  const turns: LoopTurn[] = [];
  const usage: TokenUsage = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 };
  const { maxTokens: optionTokens, ...modelOptions } = options.modelOptions ?? {};
  let latencyMs = 0;
  const done = (rest: Omit<LoopOutcome, 'turns' | 'usage' | 'latencyMs'>): LoopOutcome => ({
    ...rest,
    turns,
    usage,
    latencyMs,
  });
  for (let index = 1; index <= options.maxTurns; index++) {
    if (isAborted(options.signal)) return done({ status: 'aborted', message: 'cancelled' });
    const outcome = await client.complete({
      system: view.system,
      messages,
      tools: view.tools,
      maxTokens: options.maxTokens ?? optionTokens ?? DEFAULT_MAX_TOKENS,
      ...(Object.keys(modelOptions).length === 0 ? {} : { options: modelOptions }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.onProgress === undefined
        ? {}
        : { onProgress: (p: ChatProgress) => options.onProgress?.(index, withPrograms(p)) }),
    });
    if (!outcome.ok)
      return done({
        status: outcome.kind === 'aborted' ? 'aborted' : 'model-failed',
        failure: outcome.kind,
        message: `turn ${index}: ${outcome.message}`,
      });
    const reply = outcome.reply;
    usage.inputTokens += reply.usage.inputTokens;
    usage.outputTokens += reply.usage.outputTokens;
    usage.cachedInputTokens = (usage.cachedInputTokens ?? 0) + (reply.usage.cachedInputTokens ?? 0);
    latencyMs += reply.latencyMs;
    const turn: LoopTurn = { index, reply, steps: [], refused: [] };
    turns.push(turn);
    await options.onReply?.(index, reply);
    messages.push({
      role: 'assistant',
      text: reply.text,
      toolCalls: reply.toolCalls,
      ...(reply.replay === undefined ? {} : { replay: reply.replay }),
    });
    if (reply.toolCalls.length === 0) {
      if (reply.text.trim() === '')
        return done({
          status: 'model-failed',
          failure: 'invalid-reply',
          message: `turn ${index}: the model replied with neither a tool call nor text`,
        });
      return done({ status: 'answered', answer: reply.text });
    }
    const results: ToolResult[] = [];
    for (const [i, call] of reply.toolCalls.entries()) {
      const program = programFor(view, call, { turn: index, index: i + 1, several: reply.toolCalls.length > 1 });
      if ('refused' in program) {
        const refused = options.sanitize === undefined ? program.refused : options.sanitize(program.refused);
        turn.refused.push({ call, message: refused });
        results.push({ callId: call.id, text: refused, isError: true });
        continue;
      }
      const run = await options.runProgram(program);
      const raw = resultText(view, run, options.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS);
      const text = options.sanitize === undefined ? raw.text : options.sanitize(raw.text);
      const isError = raw.isError;
      const step: LoopStep = { program, run, text, isError };
      turn.steps.push(step);
      await options.onStep?.(step);
      results.push({ callId: call.id, text, isError });
      if (isAborted(options.signal)) return done({ status: 'aborted', message: 'cancelled' });
    }
    messages.push({ role: 'tool', results });
  }
  return done({
    status: 'turn-limit',
    message: `stopped after ${options.maxTurns} turn${options.maxTurns === 1 ? '' : 's'} without a final answer`,
  });
}

// What a tool call asks to run, or why it cannot run (sent back to the model as the tool's error).
function programFor(
  view: ModelView,
  call: ToolCall,
  at: { turn: number; index: number; several: boolean },
): LoopProgram | { refused: string } {
  const base = { turn: at.turn, index: at.index, id: at.several ? `turn-${at.turn}-${at.index}` : `turn-${at.turn}` };
  if (call.input === undefined)
    return { refused: `error: ${call.inputProblem ?? 'the arguments are not a JSON object'}` };
  if (view.mode === 'code') {
    if (call.name !== RUN_CODE_TOOL)
      return { refused: `error: there is no tool named "${clip(call.name)}"; the only tool is ${RUN_CODE_TOOL}` };
    const code = call.input.code;
    const description = call.input.description;
    if (typeof code !== 'string' || code.trim() === '')
      return { refused: `error: ${RUN_CODE_TOOL} needs a non-empty string "code"` };
    if (code.length > MAX_PROGRAM_CHARS)
      return { refused: `error: the program is longer than ${MAX_PROGRAM_CHARS} characters` };
    const written = clearlyOther(code, view.language);
    if (written !== undefined)
      return {
        refused: `error: this program looks like ${written === 'python' ? 'Python' : 'TypeScript'}, but ${RUN_CODE_TOOL} runs ${view.language === 'python' ? 'Python' : 'TypeScript'} programs`,
      };
    return {
      ...base,
      language: view.language,
      source: code,
      ...(typeof description === 'string' ? { description: clip(description) } : {}),
    };
  }
  const target = view.direct.get(call.name);
  if (target === undefined) return { refused: `error: there is no tool named "${clip(call.name)}"` };
  const args: JsonValue = call.input;
  // one call, through the same sandbox, bindings host, schemas and cassettes as a program's calls
  const member = /^[A-Za-z_$][\w$]*$/.test(target.name) ? `.${target.name}` : `[${JSON.stringify(target.name)}]`;
  const source = `return await ${target.global}${member}(${JSON.stringify(args)});\n`;
  return { ...base, language: 'typescript', source, tool: { global: target.global, name: target.name, args } };
}

function resultText(view: ModelView, run: ProgramRun, max: number): { text: string; isError: boolean } {
  if (run.kind === 'not-run') return { text: `error: the program could not run: ${run.message}`, isError: true };
  const { result } = run;
  let text: string;
  let isError = result.error !== undefined;
  if (view.mode === 'code') text = runCodeText(result);
  else {
    // a tool's own failure is what the model sees, not the wrapper program's
    const call = result.calls[0];
    if (call !== undefined && !call.ok) {
      text = `error: ${call.message ?? 'the call did not finish'}`;
      isError = true;
    } else if (result.error !== undefined) text = `error: ${result.error.message}`;
    else text = typeof result.value === 'string' ? result.value : JSON.stringify(result.value ?? null);
  }
  return {
    text: text.length > max ? `${text.slice(0, max)}\n[… ${text.length - max} more characters cut]` : text,
    isError,
  };
}

// The other language, when the program shows clearly more of its signs (two or more) than of the expected one.
function clearlyOther(code: string, expected: Language): Language | undefined {
  const scores = languageScores(code);
  const other: Language = expected === 'python' ? 'typescript' : 'python';
  return scores[other] >= 2 && scores[other] > scores[expected] ? other : undefined;
}

// A run_code call's program as far as it has arrived, for a front end to show while the reply streams.
function withPrograms(progress: ChatProgress): ChatProgress {
  return {
    ...progress,
    toolCalls: progress.toolCalls.map((call) => {
      const program = call.name === RUN_CODE_TOOL ? partialStringField(call.input, 'code') : undefined;
      return program === undefined ? call : { ...call, program };
    }),
  };
}

function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

function clip(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
