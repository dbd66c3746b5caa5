import path from 'node:path';
import { parseArgs } from 'node:util';
import type { SandboxLevel } from '../../api.js';
import { createRuntime } from '../../index.js';
import { encodeChecked } from '../../json/lossless.js';
import { BindingsCache } from '../../notebook/bindings-cache.js';
import { CellRunner } from '../../notebook/cell-runner.js';
import { describeProblems } from '../../notebook/parse.js';
import type { PlanOverride } from '../../notebook/plan.js';
import { type CellReport, runNotebookFile } from '../../notebook/run-notebook.js';
import type { JsonValue } from '../../protocol/json-value.js';
import { formatReport } from '../report.js';
import { integer, oneOf } from '../run-options.js';
import { requireRunnableEnvironment } from '../environment.js';
import { UsageError, type CliCommand } from '../usage-error.js';

const USAGE = `ptc notebook <file.ptcnb> [--json] [--mode mock|live] [--record DIR | --replay DIR]
        [--timeout-ms N] [--max-output-bytes N] [--memory-mb N] [--sandbox required|best-effort|off]`;

interface NotebookFlags {
  file: string;
  json: boolean;
  override: PlanOverride;
  limits: { timeoutMs?: number; maxOutputBytes?: number; memoryMb?: number; sandbox?: SandboxLevel };
}

function parseFlags(argv: string[]): NotebookFlags {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        json: { type: 'boolean' },
        mode: { type: 'string' },
        record: { type: 'string' },
        replay: { type: 'string' },
        'timeout-ms': { type: 'string' },
        'max-output-bytes': { type: 'string' },
        'memory-mb': { type: 'string' },
        sandbox: { type: 'string' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 1)
    throw new UsageError(positionals.length === 0 ? 'missing notebook file' : `expected one notebook file, got ${positionals.length}`);
  if (values.record !== undefined && values.replay !== undefined) throw new UsageError('--record and --replay cannot be combined');
  const mode = oneOf('mode', values.mode, ['mock', 'live'] as const);
  const sandbox = oneOf('sandbox', values.sandbox, ['required', 'best-effort', 'off'] as const);
  const override: PlanOverride = {};
  if (mode !== undefined) override.mode = mode;
  if (values.record !== undefined) override.force = { mode: 'record', dir: path.resolve(values.record) };
  if (values.replay !== undefined) override.force = { mode: 'replay', dir: path.resolve(values.replay) };
  const limits: NotebookFlags['limits'] = {};
  const timeoutMs = integer('timeout-ms', values['timeout-ms']);
  const maxOutputBytes = integer('max-output-bytes', values['max-output-bytes']);
  const memoryMb = integer('memory-mb', values['memory-mb']);
  if (timeoutMs !== undefined) limits.timeoutMs = timeoutMs;
  if (maxOutputBytes !== undefined) limits.maxOutputBytes = maxOutputBytes;
  if (memoryMb !== undefined) limits.memoryMb = memoryMb;
  if (sandbox !== undefined) limits.sandbox = sandbox;
  return { file: positionals[0] as string, json: values.json === true, override, limits };
}

// One `cells[]` entry of --json output; deep values are encoded without recursion.
function cellJson(report: CellReport): string {
  const head = `"index":${report.index},"language":${JSON.stringify(report.language)}${report.cellId === undefined ? '' : `,"cellId":${JSON.stringify(report.cellId)}`},"plan":${JSON.stringify(report.plan)}`;
  const { outcome } = report;
  if (outcome.kind === 'setup-failed') return `{${head},"setupError":${JSON.stringify({ stage: outcome.stage, message: outcome.message })}}`;
  const cassette = outcome.cassette === undefined ? '' : `,"cassette":${JSON.stringify(outcome.cassette)}`;
  return `{${head},"result":${encodeChecked(outcome.result as unknown as JsonValue, 0)}${cassette}}`;
}

function cellText(report: CellReport, file: string): string {
  const title = `━━ ${path.basename(file)} · cell ${report.index + 1}${report.cellId === undefined ? '' : ` (${report.cellId})`} · ${report.language} · ${report.plan} ━━\n`;
  const { outcome } = report;
  if (outcome.kind === 'setup-failed') return `${title}── could not run (${outcome.stage}) ──\n${outcome.message}\n`;
  const cassette =
    outcome.cassette === undefined
      ? ''
      : outcome.cassette.ok
        ? `── recorded ${outcome.cassette.calls} call(s) to ${outcome.cassette.path} ──\n`
        : `── cassette not written: ${outcome.cassette.message} ──\n`;
  return `${title}${formatReport(outcome.result, report.program)}${cassette}`;
}

function failed(report: CellReport): boolean {
  if (report.outcome.kind === 'setup-failed') return true;
  return report.outcome.result.error !== undefined || (report.outcome.cassette !== undefined && !report.outcome.cassette.ok);
}

// `ptc notebook`: every code cell of a .ptcnb in order, headless, the extension's code path.
export const notebookCommand: CliCommand = {
  name: 'notebook',
  summary: 'run every code cell of a .ptcnb notebook in order',
  usage: USAGE,
  async run(argv, io) {
    const flags = parseFlags(argv);
    requireRunnableEnvironment();
    // cells run one after another: a spare process makes every cell after the first skip start-up
    const runtime = createRuntime({ spares: 1 });
    const bindings = new BindingsCache();
    const runner = new CellRunner({ runtime, bindings });
    const controller = new AbortController();
    const onSignal = (signal: NodeJS.Signals): void => controller.abort(new Error(`interrupted by ${signal}`));
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    try {
      const run = await runNotebookFile(runner, {
        notebookPath: flags.file,
        override: flags.override,
        limits: flags.limits,
        signal: controller.signal,
        onWarning: (index, message) => io.stderr(`ptc notebook: cell ${index + 1}: ${message}\n`),
      });
      if (!run.ok) {
        const detail = run.problems === undefined ? '' : `\n${describeProblems(run.problems, flags.file)}`;
        throw new UsageError(`${run.message}${detail}`);
      }
      if (flags.json) io.stdout(`{"cells":[${run.cells.map(cellJson).join(',')}]${run.stopped ? ',"stopped":true' : ''}}\n`);
      else {
        io.stdout(run.cells.length === 0 ? 'no code cells\n' : run.cells.map((c) => cellText(c, flags.file)).join('\n'));
        const bad = run.cells.filter(failed).length;
        io.stdout(`\n${run.cells.length - bad} of ${run.cells.length} code cell(s) succeeded${run.stopped ? ' (stopped early)' : ''}\n`);
      }
      return run.stopped || run.cells.some(failed) ? 1 : 0;
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      // stops the bindings' MCP servers, which would otherwise keep the CLI alive
      await bindings.dispose();
      await runtime.dispose();
    }
  },
};
