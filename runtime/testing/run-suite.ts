import { readTextFile } from '../files/read-text.js';
import path from 'node:path';
import { parseNotebook, describeProblems } from '../notebook/parse.js';
import { cellCassettePath, legacyCassettePath, type PlanOverride } from '../session/plan.js';
import { cassetteToRead } from '../session/legacy-cassette.js';
import { cellRunRequest, openNotebookSession, type NotebookSessionSettings } from '../session/notebook-session.js';
import type { CodeCell, NotebookFile } from '../notebook/schema.js';
import type { ExpectationReport } from '../protocol/expectation-report.js';
import type { RunResult } from '../protocol/run-result.js';
import { loadCassette, type Cassette } from '../replay/index.js';
import type { RunLimits, Session } from '../session/session-types.js';
import { expectationFromResult } from './accept.js';
import { checkExpectation } from './check.js';
import { callDrift, type DriftItem } from './drift.js';
import type { Expectation } from '../notebook/expectation.js';
import { shardOf, type ShardSpec } from './shard.js';
import { writeExpectations } from './update-notebook.js';

export type TestStatus = 'passed' | 'failed' | 'skipped';

export interface CellTestResult {
  notebook: string;
  // position in the notebook (0-based, markdown cells included)
  index: number;
  cellId: string | undefined;
  // the cell id, or `cell N`
  name: string;
  status: TestStatus;
  durationMs: number;
  report?: ExpectationReport;
  // why the cell could not be checked (no cassette, bindings failed, …) or why it was skipped
  problem?: string;
  // --mode live: where live answers differ from the cassette's
  drift?: DriftItem[];
  // --update: the expectation was rewritten (it differed)
  updated?: boolean;
  // the run itself (for the Test Explorer's details; reporters do not print it)
  result?: RunResult;
}

export interface NotebookTestResult {
  notebook: string;
  cells: CellTestResult[];
  // the notebook could not be read or parsed: one failure
  problem?: string;
  durationMs: number;
}

export interface SuiteOptions {
  // absolute paths, in the order results are reported
  notebooks: readonly string[];
  // each notebook's session (one bindings host for its cells) is opened with these
  session?: NotebookSessionSettings;
  // live handlers instead of the cassettes, with drift reported
  live?: boolean;
  // rewrite expectations (and with live, cassettes) from these runs
  update?: boolean;
  // cells run at the same time, across notebooks
  jobs?: number;
  limits?: RunLimits;
  signal?: AbortSignal;
  // the notebook's text as the editor has it (unsaved edits), instead of the file
  notebookSource?: (file: string) => NotebookFile | undefined;
  // this machine's part of the notebooks (`--shard i/n`), split by their number of test cells
  shard?: ShardSpec;
  // only these cells (the Test Explorer's selection); undefined: every cell with an expectation
  select?: (file: string, index: number) => boolean;
  // once, before any cell runs: how many cells (skipped ones too) and notebooks this run will report
  onPlanned?: (plan: { cells: number; notebooks: number }) => void;
  onNotebookDone?: (result: NotebookTestResult) => void;
  onCellStart?: (file: string, index: number) => void;
  onCellDone?: (result: CellTestResult) => void;
  onWarning?: (file: string, index: number, message: string) => void;
}

export interface SuiteResult {
  notebooks: NotebookTestResult[];
  passed: number;
  failed: number;
  skipped: number;
  // the signal stopped the run before every cell ran
  stopped: boolean;
}

// The cells of a notebook that are tests: code cells with an expectation.
export function testCells(notebook: NotebookFile): { index: number; cell: CodeCell; expect: Expectation }[] {
  const out: { index: number; cell: CodeCell; expect: Expectation }[] = [];
  notebook.cells.forEach((cell, index) => {
    if (cell.kind === 'code' && cell.metadata?.expect !== undefined)
      out.push({ index, cell, expect: cell.metadata.expect });
  });
  return out;
}

export const testName = (cell: CodeCell, index: number): string => cell.metadata?.id ?? `cell ${index + 1}`;

const TITLE_CHARS = 72;

// What a person calls a test cell: its first meaningful line (a leading comment's text, else the first line of
// code past its imports), since generated ids like `0jdsolfl` say nothing; `cell N` when the cell is empty.
export function testTitle(cell: CodeCell, index: number): string {
  for (const raw of cell.source.split('\n')) {
    const line = raw
      .trim()
      .replace(/^(?:\/\/+|#+|\/\*+|\*+\/?|"""|''')\s*/, '')
      .replace(/\s*(?:\*\/|"""|''')$/, '')
      .trim();
    // an import says nothing about what the cell tests
    if (line === '' || /^(?:import\s|from\s+\S+\s+import\s)/.test(line)) continue;
    return line.length > TITLE_CHARS ? `${line.slice(0, TITLE_CHARS - 1)}…` : line;
  }
  return `cell ${index + 1}`;
}

type Loaded = { file: string; notebook: NotebookFile } | { file: string; problem: string };

async function loadNotebook(file: string, source: SuiteOptions['notebookSource']): Promise<Loaded> {
  const own = source?.(file);
  if (own !== undefined) return { file, notebook: own };
  const read = await readTextFile(file);
  if (!read.ok) return { file, problem: `cannot read ${file}: ${read.reason}` };
  const parsed = parseNotebook(read.text);
  return parsed.ok
    ? { file, notebook: parsed.notebook }
    : { file, problem: `not a readable notebook:\n${describeProblems(parsed.problems, file)}` };
}

interface Task {
  file: string;
  notebook: NotebookFile;
  index: number;
  cell: CodeCell;
  expect: Expectation;
}

// Runs every test cell of the notebooks, `jobs` at a time (cells of one notebook share its session: one bindings
// host), offline from each cell's cassette unless `live`; deterministic (frozen clock, seeded random values).
export async function runTestSuite(options: SuiteOptions): Promise<SuiteResult> {
  const jobs = Math.max(1, Math.floor(options.jobs ?? 1));
  const all = await Promise.all(options.notebooks.map((file) => loadNotebook(file, options.notebookSource)));
  const weight = (entry: Loaded): number => ('problem' in entry ? 1 : testCells(entry.notebook).length);
  const loaded =
    options.shard === undefined
      ? all
      : shardOf(
          all.map((item) => ({ item, weight: weight(item) })),
          options.shard,
        );
  const files = loaded.map((entry) => entry.file);
  const results = new Map<string, NotebookTestResult>();
  const remaining = new Map<string, number>();
  const started = new Map<string, number>();
  const tasks: Task[] = [];
  for (const entry of loaded) {
    const result: NotebookTestResult = { notebook: entry.file, cells: [], durationMs: 0 };
    results.set(entry.file, result);
    if ('problem' in entry) {
      result.problem = entry.problem;
      continue;
    }
    let count = 0;
    for (const test of testCells(entry.notebook)) {
      if (options.select !== undefined && !options.select(entry.file, test.index)) continue;
      tasks.push({ file: entry.file, notebook: entry.notebook, ...test });
      count++;
    }
    remaining.set(entry.file, count);
  }

  options.onPlanned?.({ cells: tasks.length, notebooks: files.length });
  const sessions = new Map<string, Session>();
  const updates = new Map<string, Map<number, Expectation>>();
  const reported = new Set<string>();
  // a notebook is reported once all its cells are done, in the order given (a later one waits for an earlier one)
  const flush = async (): Promise<void> => {
    for (const file of files) {
      if (reported.has(file)) continue;
      if ((remaining.get(file) ?? 0) > 0) return;
      reported.add(file);
      const result = results.get(file) as NotebookTestResult;
      const edits = updates.get(file);
      if (edits !== undefined && edits.size > 0) {
        const written = await writeExpectations(file, edits);
        if (!written.ok) result.problem = written.message;
      }
      options.onNotebookDone?.(result);
    }
  };
  const finishCell = async (task: Task, cell: CellTestResult): Promise<void> => {
    const result = results.get(task.file) as NotebookTestResult;
    result.cells.push(cell);
    result.cells.sort((a, b) => a.index - b.index);
    options.onCellDone?.(cell);
    const left = (remaining.get(task.file) as number) - 1;
    remaining.set(task.file, left);
    if (left === 0) {
      result.durationMs = performance.now() - (started.get(task.file) ?? performance.now());
      const session = sessions.get(task.file);
      sessions.delete(task.file);
      await session?.dispose();
    }
  };

  let next = 0;
  let stopped = false;
  const worker = async (): Promise<void> => {
    for (;;) {
      if (options.signal?.aborted === true) {
        stopped = next < tasks.length;
        return;
      }
      const task = tasks[next++];
      if (task === undefined) return;
      if (!started.has(task.file)) started.set(task.file, performance.now());
      const cell = await runOne(task);
      await finishCell(task, cell);
      await flush();
    }
  };

  const runOne = async (task: Task): Promise<CellTestResult> => {
    const base = {
      notebook: task.file,
      index: task.index,
      cellId: task.cell.metadata?.id,
      name: testName(task.cell, task.index),
    };
    if (task.expect.skip !== undefined) {
      return {
        ...base,
        status: 'skipped',
        durationMs: 0,
        ...(task.expect.skip === true ? {} : { problem: task.expect.skip }),
      };
    }
    options.onCellStart?.(task.file, task.index);
    const notebookDir = path.dirname(task.file);
    let session = sessions.get(task.file);
    if (session === undefined) {
      session = openNotebookSession({
        ...options.session,
        notebookDir,
        metadataBindings: task.notebook.metadata?.bindings,
      });
      sessions.set(task.file, session);
    }
    // offline from the cassette, or live (recording with --update), whatever the cell's own mode; always deterministic
    const force: PlanOverride['force'] =
      options.live !== true
        ? { mode: 'replay' }
        : options.update === true
          ? { mode: 'record', handlers: 'live' }
          : { mode: 'live' };
    const where = { cell: task.cell.metadata, cellIndex: task.index, notebookDir, notebookFile: task.file };
    const cassettePath = cellCassettePath(where);
    // the recorded answers, read before a re-recording replaces them
    let recorded: Cassette | undefined;
    if (options.live === true) {
      const legacy = { path: legacyCassettePath(where), notebookFile: task.file };
      const load = await loadCassette(await cassetteToRead({ cassettePath, legacy }));
      if (load.ok) recorded = load.cassette;
    }
    const began = performance.now();
    const outcome = await session.run(
      cellRunRequest({
        language: task.cell.language,
        program: task.cell.source,
        cellIndex: task.index,
        cell: task.cell.metadata,
        notebook: task.notebook.metadata,
        notebookDir,
        notebookFile: task.file,
        override: { force, deterministic: true },
        ...(options.limits === undefined ? {} : { limits: options.limits }),
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        ...(options.onWarning === undefined
          ? {}
          : { onWarning: (message: string) => options.onWarning?.(task.file, task.index, message) }),
      }),
    );
    const durationMs = performance.now() - began;
    if (outcome.kind === 'setup-failed') {
      const hint =
        outcome.stage === 'cassette' && options.live !== true
          ? ' (record it: accept the cell in VS Code, or `ptc test --mode live --update`)'
          : '';
      return {
        ...base,
        status: 'failed',
        durationMs,
        problem: `could not run (${outcome.stage}): ${outcome.message}${hint}`,
      };
    }
    const { result } = outcome;
    const drift = recorded === undefined ? undefined : callDrift(result, recorded);
    const extra = {
      ...(drift === undefined ? {} : { drift }),
      ...(options.live === true && recorded === undefined && options.update !== true
        ? { problem: `no cassette at ${cassettePath} to compare live answers with` }
        : {}),
    };
    if (outcome.infrastructure !== undefined) {
      // never checked against, nor stored as, the expectation: the machine failed, not the program
      const kept = options.update === true ? '; its cassette and expectation were left as they were' : '';
      return {
        ...base,
        status: 'failed',
        durationMs,
        result,
        problem: `the run failed outside the program: ${outcome.infrastructure}${kept}`,
        ...extra,
      };
    }
    if (outcome.cassette !== undefined && !outcome.cassette.ok) {
      return {
        ...base,
        status: 'failed',
        durationMs,
        result,
        problem: `cassette not written: ${outcome.cassette.message}`,
        ...extra,
      };
    }
    const report = checkExpectation(task.expect, result);
    if (options.update === true) {
      if (!report.ok) {
        const edits = updates.get(task.file) ?? new Map<number, Expectation>();
        edits.set(task.index, expectationFromResult(result, task.expect));
        updates.set(task.file, edits);
      }
      return { ...base, status: 'passed', durationMs, result, report, updated: !report.ok, ...extra };
    }
    // an expectation that covers only the value would say "missing / got (nothing)": say how the run ended first
    const how = report.ok ? undefined : howRunFailed(result);
    return {
      ...base,
      status: report.ok ? 'passed' : 'failed',
      durationMs,
      result,
      report,
      ...extra,
      ...(how === undefined ? {} : { problem: how }),
    };
  };

  try {
    await Promise.all(Array.from({ length: Math.min(jobs, Math.max(1, tasks.length)) }, worker));
    // notebooks without test cells, and the ones a stop left unfinished, are reported too
    for (const file of files) if ((remaining.get(file) ?? 0) > 0) remaining.set(file, 0);
    await flush();
  } finally {
    await Promise.all([...sessions.values()].map((s) => s.dispose()));
  }
  const reports = [...results.values()];
  const cells = reports.flatMap((r) => r.cells);
  return {
    notebooks: files.map((file) => results.get(file) as NotebookTestResult),
    passed: cells.filter((c) => c.status === 'passed').length,
    failed: cells.filter((c) => c.status === 'failed').length + reports.filter((r) => r.problem !== undefined).length,
    skipped: cells.filter((c) => c.status === 'skipped').length,
    stopped,
  };
}

// How a failed run ended, in words, or undefined when it did not fail. Runs under ptc test are deterministic (frozen
// clock), so a deadline is usually a wait loop on Date.now() / time.time() that can never end: say so.
export function howRunFailed(result: RunResult): string | undefined {
  const error = result.error;
  if (error === undefined) return undefined;
  const lines = error.message.split('\n').filter((line) => line.trim() !== '');
  // a Python traceback names the error on its last line
  const first = (lines[0]?.startsWith('Traceback') === true ? lines.at(-1) : lines[0])?.trim() ?? '';
  if (error.kind === 'timeout' && /deadline/.test(first))
    return `the run timed out: ${first} (the clock is frozen under ptc test: a wait loop on Date.now() or time.time() never ends)`;
  return `the run failed (${error.kind}): ${first}`;
}
