import fs from 'node:fs';
import path from 'node:path';
import {
  errorMessage,
  createSession,
  endpointClient,
  KEY_VARIABLES,
  keyFromEnv,
  ModelOptionsSchema,
  ModelOptionsTableSchema,
  LOOP_MODES,
  makeDirsSync,
  mergeEvalFiles,
  parseModelSpec,
  parseTasks,
  replayProblems,
  reportNotebook,
  runEval,
  serializeNotebook,
  specLabel,
  summarize,
  summaryTable,
  transcriptName,
  writeLinesAtomically,
  type EvalModel,
  type EvalRun,
  type ModelOptions,
  type ModelOptionsTable,
  type Shard,
} from '../../index.js';
import { bindingsLog } from '../bindings-log.js';
import { liveProgress, seconds } from '../live-line.js';
import { integer, LIMIT_OPTIONS, oneOf, REPLAY_WITH_MODE } from '../run-options.js';
import { interruptible } from '../signals.js';
import { visibleJson, visibleText } from '../terminal-text.js';
import { requireRunnableEnvironment } from '../environment.js';
import { UsageError, oneFile, parseCommandLine, type CliCommand, type FlagSpecs } from '../usage-error.js';

const USAGE = `ptc eval <tasks.jsonl> --bindings <module> --models <provider:model[@baseUrl]>,… [--modes code,direct] [--samples N]
        [--replay <cassette dir> | --mode mock|live] [--language typescript|python] [--max-turns N] [--shard i/n]
        [--max-tokens N] [--temperature T] [--seed N] [--reasoning-effort minimal|low|medium|high]
        [--thinking-budget N] [--tool-choice auto|required|none] [--model-options <file.json>]
        [-o, --output <dir>] [--json] [--timeout-ms N] [--sandbox required|best-effort|off]
  providers: openai (Chat Completions), openai-responses (Responses API), anthropic (Messages API)
       ptc eval merge <shard dir or eval.json>… [-o, --output <dir>] [--json]   (the table one run of every shard would print)`;

const FLAGS = {
  bindings: { type: 'string', value: '<module>', help: 'the bindings module whose functions are the tools (required)' },
  models: {
    type: 'string',
    value: '<provider:model[@baseUrl]>,…',
    help: 'the models to compare; keys come from the environment (required)',
  },
  modes: {
    type: 'string',
    value: 'code,direct',
    byDefault: 'code,direct',
    help: 'code mode (one run_code tool), direct tool calls, or both',
  },
  samples: { type: 'string', value: 'N', byDefault: '1', help: 'runs per task, model and mode (1 to 100)' },
  replay: { type: 'string', value: '<cassette dir>', help: 'answer tool calls from recorded cassettes' },
  mode: {
    type: 'string',
    choices: ['mock', 'live'],
    byDefault: 'mock',
    help: 'which handlers answer the tool calls (not with --replay)',
  },
  language: {
    type: 'string',
    choices: ['typescript', 'python'],
    byDefault: 'typescript',
    help: "the language of code mode's programs",
  },
  'max-turns': { type: 'string', value: 'N', byDefault: '8', help: 'model turns per task (1 to 50)' },
  shard: { type: 'string', value: 'i/n', help: "run only this machine's part of the tasks" },
  output: {
    type: 'string',
    short: 'o',
    value: '<dir>',
    help: 'write eval.json, eval.ptcnb and one transcript per run there',
  },
  out: { type: 'string', aliasOf: 'output', help: 'old spelling of --output' },
  json: { type: 'boolean', help: 'print the summary and runs as JSON' },
  'timeout-ms': LIMIT_OPTIONS['timeout-ms'],
  sandbox: LIMIT_OPTIONS.sandbox,
  'max-tokens': {
    type: 'string',
    value: 'N',
    help: "the most tokens a model may answer with per turn (the provider's default otherwise)",
  },
  temperature: { type: 'string', value: 'T', help: 'sampling temperature (0 to 2)' },
  seed: { type: 'string', value: 'N', help: 'a sampling seed, where the provider takes one' },
  'reasoning-effort': {
    type: 'string',
    choices: ['minimal', 'low', 'medium', 'high'],
    help: 'reasoning effort for OpenAI reasoning models',
  },
  'thinking-budget': { type: 'string', value: 'N', help: "Anthropic extended thinking: the thinking tokens' budget" },
  'tool-choice': {
    type: 'string',
    choices: ['auto', 'required', 'none'],
    help: 'whether the model must, may or may not call tools',
  },
  'model-options': {
    type: 'string',
    value: '<file.json>',
    help: 'options per model: { "*": {…}, "<model or label>": {…} }, over the flags above (a task\'s own options win)',
  },
} as const satisfies FlagSpecs;

interface EvalFlags {
  file: string;
  bindings: string;
  models: string[];
  modes: (typeof LOOP_MODES)[number][];
  samples: number;
  replay: string | undefined;
  mode: 'mock' | 'live';
  language: 'typescript' | 'python';
  maxTurns: number;
  shard: Shard | undefined;
  out: string | undefined;
  json: boolean;
  timeoutMs: number | undefined;
  sandbox: 'required' | 'best-effort' | 'off' | undefined;
  modelOptions: ModelOptions;
  modelOptionsTable: ModelOptionsTable | undefined;
}

function parseFlags(argv: string[]): EvalFlags {
  const { values, positionals } = parseCommandLine(argv, FLAGS, 'eval');
  const file = oneFile(positionals, 'tasks file');
  if (values.bindings === undefined) throw new UsageError('missing --bindings <module>');
  if (values.models === undefined) throw new UsageError('missing --models <provider:model[@baseUrl]>,…');
  if (values.replay !== undefined && values.mode !== undefined) throw new UsageError(REPLAY_WITH_MODE);
  const modes = (values.modes ?? 'code,direct')
    .split(',')
    .map((m) => oneOf('modes', m.trim(), LOOP_MODES) as (typeof LOOP_MODES)[number]);
  const samples = integer('samples', values.samples) ?? 1;
  const maxTurns = integer('max-turns', values['max-turns']) ?? 8;
  if (samples < 1 || samples > 100) throw new UsageError('--samples expects 1 to 100');
  if (maxTurns < 1 || maxTurns > 50) throw new UsageError('--max-turns expects 1 to 50');
  return {
    file,
    bindings: values.bindings,
    models: values.models
      .split(',')
      .map((m) => m.trim())
      .filter((m) => m !== ''),
    modes: [...new Set(modes)],
    samples,
    replay: values.replay,
    mode: oneOf('mode', values.mode, ['mock', 'live'] as const) ?? 'mock',
    language: oneOf('language', values.language, ['typescript', 'python'] as const) ?? 'typescript',
    maxTurns,
    shard: shardOf(values.shard),
    out: values.output,
    json: values.json === true,
    timeoutMs: integer('timeout-ms', values['timeout-ms']),
    sandbox: oneOf('sandbox', values.sandbox, ['required', 'best-effort', 'off'] as const),
    modelOptions: modelOptionsOf(values),
    modelOptionsTable: modelOptionsTableOf(values['model-options']),
  };
}

const MODEL_OPTIONS_FILE_BYTES = 1024 * 1024;

// --model-options: a JSON file of options per model, checked by the same schema as the settings' table.
function modelOptionsTableOf(file: string | undefined): ModelOptionsTable | undefined {
  if (file === undefined) return undefined;
  let text: string;
  try {
    const stat = fs.statSync(file);
    if (!stat.isFile() || stat.size > MODEL_OPTIONS_FILE_BYTES)
      throw new UsageError(`--model-options: ${file} is not a JSON file of at most ${MODEL_OPTIONS_FILE_BYTES} bytes`);
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`--model-options: cannot read ${file}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--model-options: ${file} is not JSON (${errorMessage(error)})`);
  }
  const parsed = ModelOptionsTableSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UsageError(
      `--model-options: ${file}: ${issue?.path.map(String).join('.') ?? ''}: ${issue?.message ?? 'invalid'}`,
    );
  }
  return parsed.data;
}

// The model options flags, checked by the same schema as a task's `options`.
function modelOptionsOf(values: Record<string, string | boolean | undefined>): ModelOptions {
  const text = (name: string): string | undefined => (typeof values[name] === 'string' ? values[name] : undefined);
  const number = (name: string): number | undefined => {
    const raw = text(name);
    if (raw === undefined) return undefined;
    const value = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(value)) throw new UsageError(`--${name} expects a number, got "${raw}"`);
    return value;
  };
  const raw = {
    maxTokens: number('max-tokens'),
    temperature: number('temperature'),
    seed: number('seed'),
    reasoningEffort: text('reasoning-effort'),
    thinkingBudget: number('thinking-budget'),
    toolChoice: text('tool-choice'),
  };
  const parsed = ModelOptionsSchema.safeParse(
    Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined)),
  );
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const flag = String(issue?.path[0] ?? '').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    throw new UsageError(`--${flag}: ${issue?.message ?? 'invalid value'}`);
  }
  return parsed.data;
}

function shardOf(raw: string | undefined): Shard | undefined {
  if (raw === undefined) return undefined;
  const match = /^(\d+)\/(\d+)$/.exec(raw);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (match === null || count < 1 || index < 1 || index > count)
    throw new UsageError(`--shard expects i/n with 1 ≤ i ≤ n, got "${raw}"`);
  return { index, count };
}

// The models, each with its key from the environment (never from a flag: a flag lands in shell history and `ps`).
// A model without a key is a usage error before any request: an unauthenticated request only comes back as 401.
function modelsOf(specs: readonly string[]): { models: EvalModel[]; keys: string[] } {
  if (specs.length === 0) throw new UsageError('--models names no model');
  const keys: string[] = [];
  const models = specs.map((text) => {
    const parsed = parseModelSpec(text, process.env);
    if (!parsed.ok) throw new UsageError(parsed.message);
    const key = keyFromEnv(parsed.spec.provider, process.env);
    if (key === undefined) {
      const [variable, ...others] = KEY_VARIABLES[parsed.spec.provider];
      throw new UsageError(
        `no API key for ${specLabel(parsed.spec)}: set ${variable} (or ${others.join(', ')}); a local server that needs none takes any value`,
      );
    }
    keys.push(key);
    const client = endpointClient(parsed.spec, key);
    return { label: client.label, client };
  });
  return { models, keys };
}

// `ptc eval`: every task with every model in code mode and direct mode, tools from cassettes or mocks.
export const evalCommand: CliCommand = {
  name: 'eval',
  summary: 'compare models and modes (code vs direct tool calls) on a tasks file',
  usage: USAGE,
  flags: FLAGS,
  exitCodes: [
    '0  every run was made (a failed check is a result, not an error)',
    '1  a run never got an answer from its model (network, HTTP error, rate limit), or the eval was stopped',
  ],
  examples: [
    '# two models, code mode against direct tool calls, tools answered from recorded cassettes\nptc eval examples/models/tasks.jsonl --bindings examples/programs/tools.bindings.mjs --replay examples/models/cassettes --models openai:gpt-4.1,anthropic:claude-sonnet-4-5',
    '# three samples per task, results and transcripts written to a folder\nptc eval tasks.jsonl --bindings tools.bindings.mjs --models openai:gpt-4.1 --samples 3 --output eval-out',
  ],
  async run(argv, commandIo) {
    if (argv[0] === 'merge') return mergeShards(argv.slice(1), commandIo);
    const flags = parseFlags(argv);
    requireRunnableEnvironment();
    let text: string;
    try {
      text = fs.readFileSync(path.resolve(flags.file), 'utf8');
    } catch {
      throw new UsageError(`cannot read tasks file: ${flags.file}`);
    }
    const tasks = parseTasks(text, flags.file);
    if (!tasks.ok) throw new UsageError(tasks.message);
    const { models, keys } = modelsOf(flags.models);
    if (flags.replay !== undefined) {
      if (!fs.statSync(path.resolve(flags.replay), { throwIfNoEntry: false })?.isDirectory())
        throw new UsageError(`--replay expects a folder of cassettes: ${flags.replay}`);
      const problems = await replayProblems(tasks.tasks, flags.replay);
      if (problems.length > 0) throw new UsageError(`--replay cannot serve every task: ${problems.join('; ')}`);
    }
    // progress on stderr (stdout has the table or the JSON): on a terminal a live line names the run under way and
    // counts the runs done; everywhere else the plain line per run alone
    const live = liveProgress(commandIo, 'stderr');
    const { io } = live;
    const counts = { total: 0, position: 0, done: 0, failed: 0, turn: 0, running: '', since: performance.now() };
    const redraw = (): void => {
      if (counts.total === 0) return;
      const turn = counts.turn === 0 ? 'asking the model' : `turn ${counts.turn}`;
      live.show(
        `${counts.done}/${counts.total} runs${counts.failed > 0 ? `, ${counts.failed} failed` : ''} · ${seconds(performance.now() - counts.since)} · ${counts.running} · ${turn}`,
      );
    };
    // a model that takes long to answer still shows the clock moving
    const ticker = setInterval(redraw, 1000);
    ticker.unref();
    const endLive = (): void => {
      clearInterval(ticker);
      live.end();
    };
    const logs = bindingsLog(io);
    const session = createSession({
      bindingsPath: path.resolve(flags.bindings),
      onBindingsLog: logs.forModule(flags.bindings),
    });
    const checkSession = createSession();
    const signals = interruptible();
    const warnings = new Set<string>();
    try {
      const described = await session.describe({ signal: signals.signal });
      if (!described.ok) throw new UsageError(described.message);
      const runs = await runEval({
        tasks: tasks.tasks,
        models,
        modes: flags.modes,
        samples: flags.samples,
        module: described.module,
        session,
        checkSession,
        ...(flags.replay === undefined ? {} : { replayDir: flags.replay }),
        handlers: flags.mode,
        language: flags.language,
        maxTurns: flags.maxTurns,
        modelOptions: flags.modelOptions,
        ...(flags.modelOptionsTable === undefined ? {} : { modelOptionsTable: flags.modelOptionsTable }),
        secrets: keys,
        limits: {
          ...(flags.timeoutMs === undefined ? {} : { timeoutMs: flags.timeoutMs }),
          ...(flags.sandbox === undefined ? {} : { sandbox: flags.sandbox }),
        },
        ...(flags.shard === undefined ? {} : { shard: flags.shard }),
        signal: signals.signal,
        onRunStart: (planned, position, total) => {
          counts.total = total;
          counts.running = `${planned.task.id} · ${planned.model.label} · ${planned.mode} · ${planned.sample}`;
          counts.position = position;
          counts.turn = 0;
          redraw();
        },
        onTurn: (turn) => {
          counts.turn = turn;
          redraw();
        },
        onRun: (run) => {
          counts.done++;
          if (!run.passed) counts.failed++;
          // on a terminal under the live line, in a pipe or CI the plain line alone: one per run
          if (!flags.json)
            io.stderr(
              `${run.passed ? '✓' : '✗'} ${visibleText(`${run.task} · ${run.model} · ${run.mode} · ${run.sample}${run.passed ? '' : ` — ${run.message ?? run.status}`}`, { newlines: false })}\n`,
            );
          redraw();
        },
        // one line per distinct warning: a replay's unused calls repeat for every program of a run
        onWarning: (message) => warnings.add(message),
      });
      endLive();
      for (const warning of warnings) io.stderr(`ptc eval: warning: ${visibleText(warning, { newlines: false })}\n`);
      const rows = summarize(runs);
      if (flags.out !== undefined) await writeOutputs(flags.out, flags.bindings, runs, rows, io);
      // model text in the JSON cannot drive a terminal either: DEL, C1 and bidi controls become \\u escapes
      if (flags.json)
        io.stdout(
          `${visibleJson(JSON.stringify({ summary: rows, runs: runs.map(({ detail: _detail, ...run }) => run) }, null, 2))}\n`,
        );
      else io.stdout(visibleText(summaryTable(rows)));
      const unreached = unreachedModels(runs);
      if (unreached !== undefined) io.stderr(`ptc eval: ${unreached}\n`);
      return signals.signal.aborted || unreached !== undefined ? 1 : 0;
    } finally {
      endLive();
      signals.dispose();
      await Promise.all([session.dispose(), checkSession.dispose()]);
      logs.end();
    }
  },
};

// Runs that measured nothing: their model never answered (an unreadable reply is the model's own result). An eval
// whose models were all unreachable used to exit 0 with a table of failures.
function unreachedModels(runs: readonly EvalRun[]): string | undefined {
  const unreached = runs.filter((run) =>
    run.failures.some((kind) => kind.startsWith('model-') && kind !== 'model-invalid-reply'),
  );
  if (unreached.length === 0) return undefined;
  const models = [...new Set(unreached.map((run) => run.model))].join(', ');
  const kinds = [...new Set(unreached.flatMap((run) => run.failures.filter((k) => k.startsWith('model-'))))].join(', ');
  return `${unreached.length} of ${runs.length} run(s) never got an answer from their model (${models}: ${kinds}); the table measures nothing for them`;
}

async function writeOutputs(
  out: string,
  bindings: string,
  runs: readonly EvalRun[],
  rows: ReturnType<typeof summarize>,
  io: { stderr: (t: string) => void },
): Promise<void> {
  const dir = path.resolve(out);
  const transcripts = path.join(dir, 'transcripts');
  makeDirsSync(transcripts);
  for (const run of runs) await writeLinesAtomically(path.join(transcripts, transcriptName(run)), run.detail.trace);
  const summary = {
    summary: rows,
    runs: runs.map(({ detail: _detail, ...run }) => ({ ...run, transcript: `transcripts/${transcriptName(run)}` })),
  };
  await writeLinesAtomically(path.join(dir, 'eval.json'), [JSON.stringify(summary, null, 2)]);
  const notebook = reportNotebook({
    rows,
    runs,
    bindings: path.relative(dir, path.resolve(bindings)).split(path.sep).join('/'),
    transcriptDir: 'transcripts',
  });
  await writeLinesAtomically(path.join(dir, 'eval.ptcnb'), [serializeNotebook(notebook).replace(/\n$/, '')]);
  io.stderr(`ptc eval: wrote ${out}/eval.json, ${out}/eval.ptcnb and ${runs.length} transcript(s)\n`);
}

const MERGE_FLAGS = {
  output: { type: 'string', short: 'o', value: '<dir>', help: 'write the merged eval.json and the transcripts there' },
  out: { type: 'string', aliasOf: 'output', help: 'old spelling of --output' },
  json: { type: 'boolean', help: 'print the merged summary and runs as JSON' },
} as const satisfies FlagSpecs;

// `ptc eval merge`: the eval.json of each shard (`--shard i/n`) as one run's table, JSON and transcripts.
async function mergeShards(
  argv: string[],
  io: { stdout: (t: string) => void; stderr: (t: string) => void },
): Promise<number> {
  const { values, positionals } = parseCommandLine(argv, MERGE_FLAGS, 'eval merge');
  if (positionals.length === 0)
    throw new UsageError('ptc eval merge: name the shard folders (or their eval.json files) to merge');
  const files = positionals.map((given) => {
    const resolved = path.resolve(given);
    const file =
      fs.statSync(resolved, { throwIfNoEntry: false })?.isDirectory() === true
        ? path.join(resolved, 'eval.json')
        : resolved;
    try {
      return { label: given, dir: path.dirname(file), text: fs.readFileSync(file, 'utf8') };
    } catch {
      throw new UsageError(
        `cannot read ${path.relative(process.cwd(), file) || file}: expected a ptc eval --output folder or its eval.json`,
      );
    }
  });
  const merged = mergeEvalFiles(files);
  if (!merged.ok) throw new UsageError(merged.message);
  const dirOf = new Map(files.map((f) => [f.label, f.dir]));
  const runs = merged.runs.map(({ source, ...run }) => ({ run, from: dirOf.get(source) as string }));
  if (values.output !== undefined) {
    const dir = path.resolve(values.output);
    makeDirsSync(path.join(dir, 'transcripts'));
    for (const { run, from } of runs) {
      if (run.transcript === undefined || !/^transcripts\/[^/\\]+$/.test(run.transcript)) continue;
      const source = path.join(from, run.transcript);
      if (fs.existsSync(source)) fs.copyFileSync(source, path.join(dir, run.transcript));
    }
    await writeLinesAtomically(path.join(dir, 'eval.json'), [
      JSON.stringify({ summary: merged.rows, runs: runs.map((r) => r.run) }, null, 2),
    ]);
    io.stderr(`ptc eval merge: wrote ${values.output}/eval.json and the transcripts of ${runs.length} run(s)\n`);
  }
  if (values.json === true)
    io.stdout(`${visibleJson(JSON.stringify({ summary: merged.rows, runs: runs.map((r) => r.run) }, null, 2))}\n`);
  else io.stdout(visibleText(summaryTable(merged.rows)));
  return 0;
}
