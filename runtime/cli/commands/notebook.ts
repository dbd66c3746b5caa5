import path from 'node:path';
import {
  chunkedSink,
  describeProblems,
  discoverNotebooks,
  runNotebookFile,
  writeJsonText,
  type CellReport,
  type PlanOverride,
} from '../../index.js';
import { notebookCommandRuns } from '../notebook-runs.js';
import { writeReport } from '../report.js';
import { cassetteFlag, LIMIT_OPTIONS, limitFlags, oneOf, REPLAY_WITH_MODE, type LimitFlags } from '../run-options.js';
import { sandboxNote } from '../sandbox-note.js';
import { visibleJson, visibleText } from '../terminal-text.js';
import { requireRunnableEnvironment } from '../environment.js';
import { UsageError, oneFile, parseCommandLine, type CliCommand, type FlagSpecs } from '../usage-error.js';

const USAGE = `ptc notebook <file.ptcnb> [--json] [--mode mock|live] [--record DIR | --replay DIR]
        [--timeout-ms N] [--max-output-bytes N] [--memory-mb N] [--tmp-mb N] [--max-calls N] [--sandbox required|best-effort|off]`;

const FLAGS = {
  mode: {
    type: 'string',
    choices: ['mock', 'live'],
    byDefault: "the notebook's",
    help: 'which handlers answer every cell (overrides the notebook and its cells)',
  },
  record: {
    type: 'string',
    value: '<dir>',
    help: "record every cell's calls to a cassette in this folder (<dir>/<notebook>/<cell id>.json)",
  },
  replay: {
    type: 'string',
    value: '<dir>',
    help: "answer every cell's calls from the cassettes in this folder (<dir>/<notebook>/<cell id>.json)",
  },
  ...LIMIT_OPTIONS,
  json: { type: 'boolean', help: 'print the cells and their results as JSON' },
} as const satisfies FlagSpecs;

interface NotebookFlags {
  file: string;
  json: boolean;
  override: PlanOverride;
  limits: LimitFlags;
}

function parseFlags(argv: string[]): NotebookFlags {
  const { values, positionals } = parseCommandLine(argv, FLAGS, 'notebook');
  const file = oneFile(positionals, 'notebook file');
  if (values.record !== undefined && values.replay !== undefined)
    throw new UsageError('--record and --replay cannot be combined');
  if (values.replay !== undefined && values.mode !== undefined) throw new UsageError(REPLAY_WITH_MODE);
  const mode = oneOf('mode', values.mode, ['mock', 'live'] as const);
  const override: PlanOverride = {};
  if (mode !== undefined) override.mode = mode;
  const record = cassetteFlag('record', values.record, 'folder');
  const replay = cassetteFlag('replay', values.replay, 'folder');
  if (record !== undefined) override.force = { mode: 'record', dir: path.resolve(record) };
  if (replay !== undefined) override.force = { mode: 'replay', dir: path.resolve(replay) };
  return { file, json: values.json === true, override, limits: limitFlags(values) };
}

// One `cells[]` entry of --json output, written in pieces (deep and large results never become one string).
function writeCellJson(report: CellReport, push: (piece: string) => void): void {
  const json = (value: unknown): void => writeJsonText(value, (piece) => push(visibleJson(piece)));
  push(`{"index":${report.index},"language":`);
  json(report.language);
  if (report.cellId !== undefined) {
    push(',"cellId":');
    json(report.cellId);
  }
  push(',"plan":');
  json(report.plan);
  const { outcome } = report;
  if (outcome.kind === 'setup-failed') {
    push(',"setupError":');
    json({ stage: outcome.stage, message: outcome.message });
  } else {
    push(',"result":');
    json(outcome.result);
    if (outcome.cassette !== undefined) {
      push(',"cassette":');
      json(outcome.cassette);
    }
  }
  push('}');
}

function writeCellText(report: CellReport, file: string, push: (piece: string) => void): void {
  const id = report.cellId === undefined ? '' : ` (${report.cellId})`;
  push(
    visibleText(`━━ ${path.basename(file)} · cell ${report.index + 1}${id} · ${report.language} · ${report.plan} ━━\n`),
  );
  const { outcome } = report;
  if (outcome.kind === 'setup-failed') {
    push(`── could not run (${outcome.stage}) ──\n${visibleText(outcome.message)}\n`);
    return;
  }
  writeReport(outcome.result, report.program, push);
  if (outcome.cassette === undefined) return;
  push(
    visibleText(
      outcome.cassette.ok
        ? `── recorded ${outcome.cassette.calls} call(s) to ${outcome.cassette.path} ──\n`
        : `── cassette not written: ${outcome.cassette.message} ──\n`,
    ),
  );
}

function failed(report: CellReport): boolean {
  if (report.outcome.kind === 'setup-failed') return true;
  return (
    report.outcome.result.error !== undefined || (report.outcome.cassette !== undefined && !report.outcome.cassette.ok)
  );
}

// `ptc notebook`: every code cell of a .ptcnb in order, headless, the extension's code path.
export const notebookCommand: CliCommand = {
  name: 'notebook',
  summary: 'run every code cell of a .ptcnb notebook in order',
  usage: USAGE,
  flags: FLAGS,
  exitCodes: ['1  a cell failed, a cassette was not written, or the run was stopped'],
  examples: [
    '# every cell against the local MCP weather server (its last cell fails on purpose: exit 1)\nptc notebook examples/mcp/weather.ptcnb',
    '# replay every cell from recorded cassettes, as JSON\nptc notebook my.ptcnb --replay .ptc/cassettes --json',
  ],
  async run(argv, io) {
    const flags = parseFlags(argv);
    // cells that would share a cassette file without saying so: refused before anything runs or is written
    // (a notebook that is not there is left to runNotebookFile, which names the problem)
    const found =
      flags.override.force?.dir === undefined
        ? await discoverNotebooks({ patterns: [flags.file], cwd: process.cwd() })
        : undefined;
    if (found?.ok === true && found.collisions.length > 0) throw new UsageError(found.collisions.join('\n'));
    requireRunnableEnvironment();
    // cells run one after another: a spare process makes every cell after the first skip start-up
    const runs = notebookCommandRuns(io, { spares: 1, maxOutputBytes: flags.limits.maxOutputBytes });
    try {
      const run = await runNotebookFile({
        notebookPath: flags.file,
        // one session for the whole notebook: one bindings host, whose MCP servers serve every cell
        session: runs.session,
        override: flags.override,
        limits: flags.limits,
        signal: runs.signal,
        onWarning: (index, message) => io.stderr(`ptc notebook: cell ${index + 1}: ${visibleText(message)}\n`),
      });
      if (!run.ok) {
        const detail = run.problems === undefined ? '' : `\n${describeProblems(run.problems, flags.file)}`;
        throw new UsageError(`${run.message}${detail}`);
      }
      const note = sandboxNote(io, 'notebook', flags.limits.sandbox);
      for (const cell of run.cells) if (cell.outcome.kind === 'result') note(cell.outcome.result);
      const out = chunkedSink(io.stdout);
      if (flags.json) {
        out.push('{"cells":[');
        run.cells.forEach((cell, i) => {
          if (i > 0) out.push(',');
          writeCellJson(cell, out.push);
        });
        out.push(`]${run.stopped ? ',"stopped":true' : ''}}\n`);
      } else {
        if (run.cells.length === 0) out.push('no code cells\n');
        run.cells.forEach((cell, i) => {
          if (i > 0) out.push('\n');
          writeCellText(cell, flags.file, out.push);
        });
        const bad = run.cells.filter(failed).length;
        out.push(
          `\n${run.cells.length - bad} of ${run.cells.length} code cell(s) succeeded${run.stopped ? ' (stopped early)' : ''}\n`,
        );
      }
      out.flush();
      return run.stopped || run.cells.some(failed) ? 1 : 0;
    } finally {
      await runs.dispose();
    }
  },
};
