import fs from 'node:fs/promises';
import path from 'node:path';
import {
  errorMessage,
  cellDetails,
  discoverNotebooks,
  jsonReport,
  makeDirsSync,
  junitReport,
  parseShard,
  runTestSuite,
  summaryLine,
  type NotebookTestResult,
  type RunLimits,
  type ShardSpec,
} from '../../index.js';
import { notebookCommandRuns } from '../notebook-runs.js';
import { liveProgress, seconds } from '../live-line.js';
import { integer, LIMIT_OPTIONS, limitFlags, oneOf } from '../run-options.js';
import { SANDBOX_REFUSED_EXIT, sandboxNote, sandboxRefusal } from '../sandbox-note.js';
import { visibleJson, visibleText } from '../terminal-text.js';
import { requireRunnableEnvironment } from '../environment.js';
import { UsageError, parseCommandLine, type CliCommand, type CliIo, type FlagSpecs } from '../usage-error.js';

const USAGE = `ptc test [paths or globs…] [--mode replay|live] [--update] [--reporter text|junit|json | --json] [-o, --output FILE]
        [--shard i/n] [--jobs N] [--timeout-ms N] [--max-output-bytes N] [--memory-mb N] [--tmp-mb N] [--max-calls N] [--sandbox required|best-effort|off]`;

// --jobs beyond this gains nothing on any machine we know and only multiplies processes
const MAX_JOBS = 64;

// as pytest: "no tests were collected"
const NO_TESTS_EXIT = 5;

const FLAGS = {
  mode: {
    type: 'string',
    choices: ['replay', 'live'],
    byDefault: 'replay',
    help: "replay: each cell's calls from its cassette; live: the live handlers, reporting drift from the recorded answers",
  },
  live: { type: 'boolean', aliasOf: 'mode', aliasValue: 'live', help: 'the old spelling of --mode live' },
  update: { type: 'boolean', help: 'rewrite expectations from these runs (with --mode live, cassettes too)' },
  reporter: { type: 'string', choices: ['text', 'junit', 'json'], byDefault: 'text', help: 'the report' },
  json: { type: 'boolean', help: 'the JSON report, as every command prints JSON (same as --reporter json)' },
  output: { type: 'string', short: 'o', value: '<file>', help: 'write the junit or json report to a file' },
  shard: { type: 'string', value: 'i/n', help: "run only this machine's part of the notebooks" },
  jobs: { type: 'string', value: 'N', byDefault: '1', help: `cells run at the same time (1 to ${MAX_JOBS})` },
  'pass-with-no-tests': { type: 'boolean', help: 'exit 0 when there is no expectation cell to check' },
  ...LIMIT_OPTIONS,
} as const satisfies FlagSpecs;

interface TestFlags {
  patterns: string[];
  live: boolean;
  update: boolean;
  reporter: 'text' | 'junit' | 'json';
  output: string | undefined;
  shard: ShardSpec | undefined;
  jobs: number;
  limits: RunLimits;
  passWithNoTests: boolean;
}

function parseFlags(argv: string[]): TestFlags {
  const { values, positionals } = parseCommandLine(argv, FLAGS, 'test');
  let shard: ShardSpec | undefined;
  if (values.shard !== undefined) {
    const spec = parseShard(values.shard);
    if (typeof spec === 'string') throw new UsageError(spec);
    shard = spec;
  }
  const jobs = integer('jobs', values.jobs) ?? 1;
  if (jobs < 1 || jobs > MAX_JOBS) throw new UsageError(`--jobs expects 1 to ${MAX_JOBS}, got ${jobs}`);
  const limits: RunLimits = limitFlags(values);
  const chosen = oneOf('reporter', values.reporter, ['text', 'junit', 'json'] as const);
  if (values.json === true && chosen !== undefined && chosen !== 'json')
    throw new UsageError(`--json and --reporter ${chosen} ask for two reports: give one`);
  const reporter = values.json === true ? 'json' : (chosen ?? 'text');
  if (values.output !== undefined && reporter === 'text')
    throw new UsageError('--output needs --reporter junit or json');
  return {
    patterns: positionals,
    live: oneOf('mode', values.mode, ['replay', 'live'] as const) === 'live',
    update: values.update === true,
    reporter,
    output: values.output,
    shard,
    jobs,
    limits,
    passWithNoTests: values['pass-with-no-tests'] === true,
  };
}

// One compact line per notebook, then what explains each failure (and drift, with --mode live).
function progressLines(result: NotebookTestResult, root: string): string {
  const rel = path.relative(root, result.notebook) || path.basename(result.notebook);
  const passed = result.cells.filter((c) => c.status === 'passed').length;
  const failed = result.cells.filter((c) => c.status === 'failed').length;
  const skipped = result.cells.filter((c) => c.status === 'skipped').length;
  const bad = failed > 0 || result.problem !== undefined;
  const counts =
    result.cells.length === 0 && result.problem === undefined
      ? 'no expectations'
      : `${passed} passed${failed > 0 ? `, ${failed} failed` : ''}${skipped > 0 ? `, ${skipped} skipped` : ''}`;
  const updated = result.cells.filter((c) => c.updated === true).length;
  let out = `${bad ? '✗' : '✓'} ${rel}  ${counts}${updated > 0 ? `, ${updated} expectation(s) updated` : ''}  (${seconds(result.durationMs)})\n`;
  if (result.problem !== undefined) out += indent(result.problem, '    ');
  for (const cell of result.cells) {
    const details = cellDetails(cell);
    if (details.length === 0) continue;
    const mark = cell.status === 'failed' ? '✗' : cell.status === 'skipped' ? '-' : cell.updated === true ? '↻' : '·';
    out += `  ${mark} ${cell.name}\n${indent(details.join('\n'), '      ')}`;
  }
  return visibleText(out);
}

function indent(text: string, prefix: string): string {
  return `${text
    .split('\n')
    .map((line) => `${prefix}${line}`)
    .join('\n')}\n`;
}

async function writeReportFile(file: string, text: string): Promise<void> {
  try {
    makeDirsSync(path.dirname(path.resolve(file)));
    await fs.writeFile(file, text, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot write ${file}: ${errorMessage(error)}`);
  }
}

// `ptc test`: every cell with an expectation, replayed from its cassette (or live, with drift), checked and reported.
export const testCommand: CliCommand = {
  name: 'test',
  summary: 'check notebook cells against their expectations, offline from their cassettes',
  usage: USAGE,
  flags: FLAGS,
  exitCodes: [
    '1  a cell failed its expectation (or could not run), or the suite was stopped',
    '5  no expectation cell to check (as pytest; see --pass-with-no-tests)',
  ],
  examples: [
    '# replay every expectation cell under examples/ offline from its cassette\nptc test examples/',
    "# one CI machine's quarter, two cells at a time, JUnit for the CI system\nptc test --shard 2/4 --jobs 2 --reporter junit --output report.xml",
  ],
  async run(argv, commandIo: CliIo) {
    const flags = parseFlags(argv);
    const root = process.cwd();
    const found = await discoverNotebooks({ patterns: flags.patterns, cwd: root });
    if (!found.ok) throw new UsageError(found.message);
    // cells that would share a cassette file without saying so: refused before anything runs or is written
    if (found.collisions.length > 0) throw new UsageError(found.collisions.join('\n'));
    requireRunnableEnvironment();
    // progress goes where the report does not; on a terminal a live line counts the cells under it
    const progressStream = flags.reporter !== 'text' && flags.output === undefined ? 'stderr' : 'stdout';
    const live = liveProgress(commandIo, progressStream);
    const { io } = live;
    const progress = io[progressStream];
    const counts = { planned: 0, running: 0, done: 0, failed: 0, since: performance.now() };
    let latest = '';
    const redraw = (): void =>
      live.show(
        `${counts.done}/${counts.planned} cells${counts.failed > 0 ? `, ${counts.failed} failed` : ''} · ${counts.running} running · ${seconds(performance.now() - counts.since)} · ${latest}`,
      );
    // a cell that runs long still shows the clock moving
    const ticker = setInterval(() => counts.planned > 0 && redraw(), 1000);
    ticker.unref();
    const endLive = (): void => {
      clearInterval(ticker);
      live.end();
    };
    // two spares per job: a sandboxed spare takes longer to start (part of it waiting on the kernel's namespace set-up,
    // not on a CPU) than a trivial cell takes to run, so one per job left each job waiting for its next process
    const runs = notebookCommandRuns(io, { spares: 2 * flags.jobs, maxOutputBytes: flags.limits.maxOutputBytes });
    const note = sandboxNote(io, 'test', flags.limits.sandbox);
    // --sandbox required that this host cannot meet: the first such cell stops the suite, which then says so once
    let refused: string | undefined;
    const refuse = new AbortController();
    try {
      const suite = await runTestSuite({
        notebooks: found.notebooks,
        session: runs.session,
        live: flags.live,
        update: flags.update,
        jobs: flags.jobs,
        limits: flags.limits,
        signal: AbortSignal.any([runs.signal, refuse.signal]),
        ...(flags.shard === undefined ? {} : { shard: flags.shard }),
        onPlanned: ({ cells }) => {
          counts.planned = cells;
          counts.since = performance.now();
        },
        onCellStart: (file, index) => {
          counts.running++;
          latest = `${path.relative(root, file) || path.basename(file)} cell ${index + 1}`;
          redraw();
        },
        onCellDone: (cell) => {
          counts.done++;
          // a skipped cell never started
          if (cell.status !== 'skipped') counts.running--;
          if (cell.status === 'failed') counts.failed++;
          redraw();
          if (refused !== undefined || cell.result === undefined) return;
          refused = sandboxRefusal(flags.limits.sandbox, cell.result);
          if (refused !== undefined) refuse.abort();
        },
        onNotebookDone: (result) => {
          if (refused !== undefined) return;
          progress(progressLines(result, root));
          for (const cell of result.cells) if (cell.result !== undefined) note(cell.result);
        },
        onWarning: (file, index, message) =>
          io.stderr(`ptc test: ${visibleText(path.relative(root, file))} cell ${index + 1}: ${visibleText(message)}\n`),
      });
      endLive();
      if (refused !== undefined) {
        io.stderr(`ptc test: ${refused}\n`);
        return SANDBOX_REFUSED_EXIT;
      }
      if (flags.shard !== undefined)
        progress(
          `shard ${flags.shard.index}/${flags.shard.total}: ${suite.notebooks.length} of ${found.notebooks.length} notebook(s)\n`,
        );
      if (suite.stopped) progress('stopped before every cell ran\n');
      if (flags.reporter !== 'text') {
        const text =
          flags.reporter === 'junit'
            ? junitReport(suite, root)
            : `${JSON.stringify(jsonReport(suite, root), null, 2)}\n`;
        // on a terminal, no program text may act on it: DEL, C1, bidi and invisible characters become \u escapes
        if (flags.output === undefined) io.stdout(visibleJson(text));
        else await writeReportFile(flags.output, text);
      }
      progress(`${summaryLine(suite)}\n`);
      if (suite.failed > 0 || suite.stopped) return 1;
      // green with nothing checked would hide a suite that lost its tests (a glob that matches nothing useful)
      if (suite.passed + suite.skipped === 0 && !flags.passWithNoTests) {
        io.stderr(
          `ptc test: no expectation cell to check in ${suite.notebooks.length} notebook(s): give cells an expectation (accept a run in VS Code, or ptc test --mode live --update), or pass --pass-with-no-tests\n`,
        );
        return NO_TESTS_EXIT;
      }
      return 0;
    } finally {
      endLive();
      await runs.dispose();
    }
  },
};
