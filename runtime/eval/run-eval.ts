import path from 'node:path';
import type { ModelClient, ModelOptions } from '../model/chat-types.js';
import { SecretScrubber } from '../import/secrets.js';
import type { JsonValue } from '../protocol/json-value.js';
import { loadCassette } from '../replay/cassette-file.js';
import { runAgentLoop, type LoopOutcome } from '../model/agent-loop.js';
import { loopTraceLines } from '../model/loop-trace.js';
import { modelView, type LoopMode } from '../model/model-view.js';
import { sessionPrograms } from '../model/session-programs.js';
import type { Language, RunResult } from '../protocol/run-result.js';
import type { SdkSource } from '../sdk/sdk-source.js';
import type { RunLimits, RunPlan, Session } from '../session/session-types.js';
import { checkAnswer } from './checks.js';
import { modelOptionsFor, taskLanguage, type EvalTask, type ModelOptionsTable } from './tasks.js';

export interface EvalModel {
  // provider:model, as shown in reports
  label: string;
  client: ModelClient;
}

export interface Shard {
  // 1-based
  index: number;
  count: number;
}

export interface EvalOptions {
  tasks: readonly EvalTask[];
  models: readonly EvalModel[];
  modes: readonly LoopMode[];
  samples: number;
  // the bindings module's description (what the model is shown)
  module: SdkSource;
  // runs the programs, with the bindings module
  session: Session;
  // runs check predicates, without bindings
  checkSession: Session;
  // tools served from `<dir>/<task cassette or id>.json`; otherwise by the module's handlers in `handlers` mode
  replayDir?: string;
  handlers: 'mock' | 'live';
  language: Language;
  maxTurns: number;
  // every model's settings (a task's own `options` win)
  modelOptions?: ModelOptions;
  // options per model (`"*"`, a model name or label), over `modelOptions`; a task's own `options` still win
  modelOptionsTable?: ModelOptionsTable;
  // the API keys in use: replaced by [redacted] in every run record, whoever printed them
  secrets?: readonly string[];
  limits?: RunLimits;
  shard?: Shard;
  signal?: AbortSignal;
  // a run begins: its place among this machine's runs (1-based) and how many there are (progress)
  onRunStart?: (planned: EvalPlanned, position: number, total: number) => void;
  // the running run's model gave its turn-th reply (1-based), whose programs run next
  onTurn?: (turn: number) => void;
  onRun?: (record: EvalRun) => void;
  onWarning?: (message: string) => void;
}

export interface EvalRun {
  // the run's place in the whole plan (every shard numbers alike): merged shards sort by it
  index: number;
  task: string;
  model: string;
  mode: LoopMode;
  sample: number;
  status: LoopOutcome['status'];
  passed: boolean;
  // why it did not pass (check verdict or loop failure)
  message?: string;
  answer?: string;
  turns: number;
  programs: number;
  tokensIn: number;
  tokensOut: number;
  // input tokens served from the provider's prompt cache (part of tokensIn)
  tokensCached: number;
  // model time, summed over turns
  latencyMs: number;
  bindingCalls: number;
  // every failure seen, by kind: program failures (exception, timeout…), not-run, turn-limit, model-<kind>, check
  failures: string[];
  promptHash: string;
  // the full record, for transcripts and the report notebook (left out of the JSON summary)
  detail: EvalDetail;
}

export interface EvalDetail {
  // the run as a PTC trace (JSON Lines)
  trace: string[];
  programs: { id: string; language: Language; source: string; result: RunResult | undefined }[];
}

export interface EvalPlanned {
  index: number;
  task: EvalTask;
  model: EvalModel;
  mode: LoopMode;
  sample: number;
}

// Every (task, model, mode, sample) in a stable order; a shard keeps every n-th of them.
export function plannedRuns(
  options: Pick<EvalOptions, 'tasks' | 'models' | 'modes' | 'samples' | 'shard'>,
): EvalPlanned[] {
  const all: EvalPlanned[] = [];
  for (const task of options.tasks)
    for (const model of options.models)
      for (const mode of options.modes)
        for (let sample = 1; sample <= options.samples; sample++)
          all.push({ index: all.length, task, model, mode, sample });
  const shard = options.shard;
  return shard === undefined ? all : all.filter((_, i) => i % shard.count === shard.index - 1);
}

export function cassetteFileName(task: EvalTask): string {
  return `${task.cassette ?? task.id}.json`;
}

// Every task's cassette in the replay folder, loaded: one message per cassette that is missing or not a cassette.
// Checked before any model is asked, so a replay never sends a task whose tools cannot answer.
export async function replayProblems(tasks: readonly EvalTask[], replayDir: string): Promise<string[]> {
  const problems: string[] = [];
  for (const name of new Set(tasks.map(cassetteFileName))) {
    const loaded = await loadCassette(path.resolve(replayDir, name));
    if (!loaded.ok) problems.push(loaded.message);
  }
  return problems;
}

// Runs each planned run's agent loop, one at a time so latencies are comparable, and checks its answer.
export async function runEval(options: EvalOptions): Promise<EvalRun[]> {
  const runs: EvalRun[] = [];
  const scrubber = new SecretScrubber();
  for (const secret of options.secrets ?? []) scrubber.collect(secret);
  const redact = (run: EvalRun): EvalRun =>
    options.secrets === undefined || options.secrets.length === 0
      ? run
      : (scrubber.scrubValue(run as unknown as JsonValue) as unknown as EvalRun);
  const warn =
    options.onWarning === undefined
      ? undefined
      : (message: string) => options.onWarning?.(scrubber.scrubString(message));
  const planned = plannedRuns(options);
  for (const [position, run] of planned.entries()) {
    if (options.signal?.aborted === true) break;
    options.onRunStart?.(run, position + 1, planned.length);
    const record = redact(
      await runOne({ ...options, ...(warn === undefined ? {} : { onWarning: warn }) }, run, scrubber),
    );
    runs.push(record);
    options.onRun?.(record);
  }
  return runs;
}

async function runOne(options: EvalOptions, planned: EvalPlanned, scrubber: SecretScrubber): Promise<EvalRun> {
  const { index, task, model, mode, sample } = planned;
  const view = modelView({
    module: options.module,
    language: taskLanguage(task, options.language),
    task: task.task,
    mode,
  });
  const replayDir = options.replayDir === undefined ? undefined : path.resolve(options.replayDir);
  const cassette = replayDir === undefined ? undefined : path.resolve(replayDir, cassetteFileName(task));
  const plan: RunPlan =
    cassette === undefined ? { mode: options.handlers } : { mode: 'replay', cassettePath: cassette };
  const perModel =
    options.modelOptionsTable === undefined ? {} : modelOptionsFor(options.modelOptionsTable, model.label);
  const modelOptions = { ...options.modelOptions, ...perModel, ...task.options };
  const outcome = await runAgentLoop({
    client: model.client,
    view,
    maxTurns: task.maxTurns ?? options.maxTurns,
    ...(Object.keys(modelOptions).length === 0 ? {} : { modelOptions }),
    // the model reads what the program printed, never where this host keeps its files or which keys it holds
    sanitize: (text) => scrubber.scrubString(replayDir === undefined ? text : hidePath(text, replayDir)),
    runProgram: sessionPrograms({
      session: options.session,
      planFor: () => plan,
      ...(options.limits === undefined ? {} : { limits: options.limits }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      // a direct-mode call replays one call of the task's cassette, so "unused recorded calls" is expected there
      ...(options.onWarning === undefined
        ? {}
        : {
            onWarning: (message: string) => {
              if (mode !== 'direct' || !/were not used by this replay$/.test(message)) options.onWarning?.(message);
            },
          }),
    }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    // not onProgress: asking for progress streams the reply, and an eval's requests stay as they were
    ...(options.onTurn === undefined ? {} : { onReply: (turn: number) => options.onTurn?.(turn) }),
  });
  const failures: string[] = [];
  let bindingCalls = 0;
  let programs = 0;
  for (const turn of outcome.turns) {
    if (turn.refused.length > 0) failures.push(...turn.refused.map(() => 'refused'));
    for (const step of turn.steps) {
      programs++;
      if (step.run.kind === 'not-run') failures.push('not-run');
      else {
        bindingCalls += step.run.result.callSummary?.total ?? step.run.result.calls.length;
        if (step.run.result.error !== undefined) failures.push(step.run.result.error.kind);
      }
    }
  }
  let passed = false;
  let message = outcome.message;
  if (outcome.status === 'answered') {
    const verdict = await checkAnswer(task.check, outcome.answer ?? '', options.checkSession);
    passed = verdict.pass;
    if (!verdict.pass) {
      failures.push('check');
      message = verdict.message;
    }
  } else failures.push(outcome.status === 'model-failed' ? `model-${outcome.failure ?? 'failed'}` : outcome.status);
  return {
    index,
    task: task.id,
    model: model.label,
    mode,
    sample,
    status: outcome.status,
    passed,
    ...(message === undefined ? {} : { message }),
    ...(outcome.answer === undefined ? {} : { answer: outcome.answer }),
    turns: outcome.turns.length,
    programs,
    tokensIn: outcome.usage.inputTokens,
    tokensOut: outcome.usage.outputTokens,
    tokensCached: outcome.usage.cachedInputTokens ?? 0,
    latencyMs: Math.round(outcome.latencyMs),
    bindingCalls,
    failures,
    promptHash: view.promptHash,
    detail: {
      trace: loopTraceLines({
        outcome,
        task: task.task,
        model: model.label,
        module: options.module,
        producer: `ptc eval (${mode} mode)`,
      }),
      programs: outcome.turns.flatMap((t) =>
        t.steps.map((s) => ({
          id: s.program.id,
          language: s.program.language,
          source: s.program.source,
          result: s.run.kind === 'result' ? s.run.result : undefined,
        })),
      ),
    },
  };
}

// Paths inside the replay folder become the bare cassette file name; the folder itself becomes <cassettes>.
function hidePath(text: string, dir: string): string {
  let out = text;
  for (const prefix of [dir + path.sep, dir + '/', dir])
    out = out.split(prefix).join(prefix === dir ? '<cassettes>' : '');
  return out;
}

export interface EvalSummaryRow {
  model: string;
  mode: LoopMode;
  runs: number;
  passed: number;
  passRate: number;
  meanTurns: number;
  tokensIn: number;
  tokensOut: number;
  tokensCached: number;
  meanLatencyMs: number;
  bindingCalls: number;
  failures: Record<string, number>;
}

// Per model and mode, in the order they were asked for.
export function summarize(runs: readonly Omit<EvalRun, 'detail'>[]): EvalSummaryRow[] {
  const rows = new Map<string, EvalSummaryRow & { turns: number; latency: number }>();
  for (const run of runs) {
    const key = `${run.model}\u0000${run.mode}`;
    let row = rows.get(key);
    if (row === undefined) {
      row = {
        model: run.model,
        mode: run.mode,
        runs: 0,
        passed: 0,
        passRate: 0,
        meanTurns: 0,
        tokensIn: 0,
        tokensOut: 0,
        tokensCached: 0,
        meanLatencyMs: 0,
        bindingCalls: 0,
        failures: {},
        turns: 0,
        latency: 0,
      };
      rows.set(key, row);
    }
    row.runs++;
    if (run.passed) row.passed++;
    row.turns += run.turns;
    row.latency += run.latencyMs;
    row.tokensIn += run.tokensIn;
    row.tokensOut += run.tokensOut;
    row.tokensCached += run.tokensCached;
    row.bindingCalls += run.bindingCalls;
    for (const kind of run.failures) row.failures[kind] = (row.failures[kind] ?? 0) + 1;
  }
  return [...rows.values()].map(({ turns, latency, ...row }) => ({
    ...row,
    passRate: row.passed / row.runs,
    meanTurns: Math.round((turns / row.runs) * 100) / 100,
    meanLatencyMs: Math.round(latency / row.runs),
  }));
}
