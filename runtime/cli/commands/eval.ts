import fs from 'node:fs';
import path from 'node:path';
import {
  createSession,
  endpointClient,
  keyFromEnv,
  LOOP_MODES,
  makeDirsSync,
  parseModelSpec,
  parseTasks,
  reportNotebook,
  runEval,
  serializeNotebook,
  summarize,
  summaryTable,
  transcriptName,
  writeLinesAtomically,
  type EvalModel,
  type EvalRun,
  type LoopMode,
  type Shard,
} from '../../index.js';
import { bindingsLog } from '../bindings-log.js';
import { requireRunnableEnvironment } from '../environment.js';
import { integer, LIMIT_OPTIONS, oneOf } from '../run-options.js';
import { interruptible } from '../signals.js';
import { visibleJson, visibleText } from '../terminal-text.js';
import { UsageError, parseCommandLine, type CliCommand, type FlagSpecs } from '../usage-error.js';

const USAGE = `ptc eval <tasks.jsonl> --bindings <module> --models <provider:model[@baseUrl]>,… [--modes code,direct] [--samples N]
        [--replay <cassette dir> | --mode mock|live] [--language typescript|python] [--max-turns N] [--shard i/n]
        [--out <dir>] [--json] [--timeout-ms N] [--sandbox required|best-effort|off]`;

const FLAGS = {
  bindings: { type: 'string', value: '<module>', help: 'the bindings module whose functions are the tools (required)' },
  models: { type: 'string', value: '<provider:model[@baseUrl]>,…', help: 'the models to compare; keys come from the environment (required)' },
  modes: { type: 'string', value: 'code,direct', byDefault: 'code,direct', help: 'code mode (one run_code tool), direct tool calls, or both' },
  samples: { type: 'string', value: 'N', byDefault: '1', help: 'runs per task, model and mode (1 to 100)' },
  replay: { type: 'string', value: '<cassette dir>', help: 'answer tool calls from recorded cassettes' },
  mode: { type: 'string', choices: ['mock', 'live'], byDefault: 'mock', help: 'which handlers answer the tool calls (not with --replay)' },
  language: { type: 'string', choices: ['typescript', 'python'], byDefault: 'typescript', help: "the language of code mode's programs" },
  'max-turns': { type: 'string', value: 'N', byDefault: '8', help: 'model turns per task (1 to 50)' },
  shard: { type: 'string', value: 'i/n', help: "run only this machine's part of the tasks" },
  out: { type: 'string', value: '<dir>', help: 'write eval.json, eval.ptcnb and one transcript per run there' },
  json: { type: 'boolean', help: 'print the summary and runs as JSON' },
  'timeout-ms': LIMIT_OPTIONS['timeout-ms'],
  sandbox: LIMIT_OPTIONS.sandbox,
} as const satisfies FlagSpecs;

interface EvalFlags {
  file: string;
  bindings: string;
  models: string[];
  modes: LoopMode[];
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
}

function parseFlags(argv: string[]): EvalFlags {
  const parsed = parseCommandLine(argv, FLAGS, 'eval');
  const { values, positionals } = parsed;
  if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? 'missing tasks file' : `expected one tasks file, got ${positionals.length}`);
  if (values.bindings === undefined) throw new UsageError('missing --bindings <module>');
  if (values.models === undefined) throw new UsageError('missing --models <provider:model[@baseUrl]>,…');
  if (values.replay !== undefined && values.mode !== undefined) throw new UsageError('--replay and --mode cannot be combined (a replay runs no handler)');
  const modes = (values.modes ?? 'code,direct').split(',').map((m) => oneOf('modes', m.trim(), LOOP_MODES) as LoopMode);
  const samples = integer('samples', values.samples) ?? 1;
  const maxTurns = integer('max-turns', values['max-turns']) ?? 8;
  if (samples < 1 || samples > 100) throw new UsageError('--samples expects 1 to 100');
  if (maxTurns < 1 || maxTurns > 50) throw new UsageError('--max-turns expects 1 to 50');
  return {
    file: positionals[0] as string,
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
    out: values.out,
    json: values.json === true,
    timeoutMs: integer('timeout-ms', values['timeout-ms']),
    sandbox: oneOf('sandbox', values.sandbox, ['required', 'best-effort', 'off'] as const),
  };
}

function shardOf(raw: string | undefined): Shard | undefined {
  if (raw === undefined) return undefined;
  const match = /^(\d+)\/(\d+)$/.exec(raw);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (match === null || count < 1 || index < 1 || index > count) throw new UsageError(`--shard expects i/n with 1 ≤ i ≤ n, got "${raw}"`);
  return { index, count };
}

// The models, each with its key from the environment (never from a flag: a flag lands in shell history and `ps`).
function modelsOf(specs: readonly string[]): EvalModel[] {
  if (specs.length === 0) throw new UsageError('--models names no model');
  return specs.map((text) => {
    const parsed = parseModelSpec(text, process.env);
    if (!parsed.ok) throw new UsageError(parsed.message);
    const client = endpointClient(parsed.spec, keyFromEnv(parsed.spec.provider, process.env));
    return { label: client.label, client };
  });
}

// `ptc eval`: every task with every model in code mode and direct mode, tools from cassettes or mocks.
export const evalCommand: CliCommand = {
  name: 'eval',
  summary: 'compare models and modes (code vs direct tool calls) on a tasks file',
  usage: USAGE,
  flags: FLAGS,
  exitCodes: ['1  a run failed its checks, or the eval was stopped'],
  examples: [
    '# two models, code mode against direct tool calls, tools answered from recorded cassettes\nptc eval examples/models/tasks.jsonl --bindings examples/programs/tools.bindings.mjs --replay examples/models/cassettes --models openai:gpt-4.1,anthropic:claude-sonnet-4-5',
    '# three samples per task, results and transcripts written to a folder\nptc eval tasks.jsonl --bindings tools.bindings.mjs --models openai:gpt-4.1 --samples 3 --out eval-out',
  ],
  async run(argv, io) {
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
    const models = modelsOf(flags.models);
    if (flags.replay !== undefined && !fs.statSync(path.resolve(flags.replay), { throwIfNoEntry: false })?.isDirectory())
      throw new UsageError(`--replay expects a folder of cassettes: ${flags.replay}`);
    const logs = bindingsLog(io);
    const session = createSession({ bindingsPath: path.resolve(flags.bindings), onBindingsLog: logs.forModule(flags.bindings) });
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
        limits: {
          ...(flags.timeoutMs === undefined ? {} : { timeoutMs: flags.timeoutMs }),
          ...(flags.sandbox === undefined ? {} : { sandbox: flags.sandbox }),
        },
        ...(flags.shard === undefined ? {} : { shard: flags.shard }),
        signal: signals.signal,
        onRun: (run) => {
          if (!flags.json)
            io.stderr(
              `${run.passed ? '✓' : '✗'} ${visibleText(`${run.task} · ${run.model} · ${run.mode} · ${run.sample}${run.passed ? '' : ` — ${run.message ?? run.status}`}`, { newlines: false })}\n`,
            );
        },
        // one line per distinct warning: a replay's unused calls repeat for every program of a run
        onWarning: (message) => warnings.add(message),
      });
      for (const warning of warnings) io.stderr(`ptc eval: warning: ${visibleText(warning, { newlines: false })}\n`);
      const rows = summarize(runs);
      if (flags.out !== undefined) await writeOutputs(flags.out, flags.bindings, runs, rows, io);
      // model text in the JSON cannot drive a terminal either: DEL, C1 and bidi controls become \\u escapes
      if (flags.json) io.stdout(`${visibleJson(JSON.stringify({ summary: rows, runs: runs.map(({ detail: _detail, ...run }) => run) }, null, 2))}\n`);
      else io.stdout(visibleText(summaryTable(rows)));
      return signals.signal.aborted ? 1 : 0;
    } finally {
      signals.dispose();
      await Promise.all([session.dispose(), checkSession.dispose()]);
      logs.end();
    }
  },
};

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
  const summary = { summary: rows, runs: runs.map(({ detail: _detail, ...run }) => ({ ...run, transcript: `transcripts/${transcriptName(run)}` })) };
  await writeLinesAtomically(path.join(dir, 'eval.json'), [JSON.stringify(summary, null, 2)]);
  const notebook = reportNotebook({ rows, runs, bindings: path.relative(dir, path.resolve(bindings)).split(path.sep).join('/'), transcriptDir: 'transcripts' });
  await writeLinesAtomically(path.join(dir, 'eval.ptcnb'), [serializeNotebook(notebook).replace(/\n$/, '')]);
  io.stderr(`ptc eval: wrote ${out}/eval.json, ${out}/eval.ptcnb and ${runs.length} transcript(s)\n`);
}
