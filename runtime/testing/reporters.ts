import path from 'node:path';
import type { FieldMismatch } from '../protocol/expectation-report.js';
import type { CellTestResult, NotebookTestResult, SuiteResult } from './run-suite.js';

// Machine-readable reports of a test run: JUnit XML for CI systems and a JSON document. Paths are relative to `root`
// with `/` separators, so reports from different machines and shards merge.

export function describeMismatch(m: FieldMismatch): string {
  return `${m.field} (${m.match}) differs at ${m.path}: ${m.reason}\n  expected: ${m.expected}\n  got:      ${m.actual}`;
}

// Everything that explains a cell's outcome, as plain lines.
export function cellDetails(cell: CellTestResult): string[] {
  const lines: string[] = [];
  if (cell.problem !== undefined) lines.push(cell.problem);
  for (const m of cell.report?.mismatches ?? []) lines.push(describeMismatch(m));
  for (const d of cell.drift ?? []) lines.push(`drift (${d.kind}) ${d.call}: ${d.detail}`);
  return lines;
}

const relativeTo = (root: string, file: string): string => path.relative(root, file).split(path.sep).join('/');

// XML 1.0 has no place for most control characters at all: they are shown as escapes, never written.
function xml(text: string): string {
  return text
    .replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] as string)
    .replace(
      /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ufffe\uffff]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    )
    .replace(
      /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16)}`,
    );
}

const seconds = (ms: number): string => (ms / 1000).toFixed(3);

export function junitReport(suite: SuiteResult, root: string): string {
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const total = suite.passed + suite.failed + suite.skipped;
  const time = suite.notebooks.reduce((sum, n) => sum + n.durationMs, 0);
  out.push(
    `<testsuites name="ptc test" tests="${total}" failures="${suite.failed}" skipped="${suite.skipped}" time="${seconds(time)}">`,
  );
  for (const notebook of suite.notebooks) out.push(...junitSuite(notebook, root));
  out.push('</testsuites>', '');
  return out.join('\n');
}

function junitSuite(notebook: NotebookTestResult, root: string): string[] {
  const name = xml(relativeTo(root, notebook.notebook));
  const failed = notebook.cells.filter((c) => c.status === 'failed').length + (notebook.problem === undefined ? 0 : 1);
  const skipped = notebook.cells.filter((c) => c.status === 'skipped').length;
  const tests = notebook.cells.length + (notebook.problem === undefined ? 0 : 1);
  const out = [
    `  <testsuite name="${name}" tests="${tests}" failures="${failed}" skipped="${skipped}" time="${seconds(notebook.durationMs)}">`,
  ];
  if (notebook.problem !== undefined) {
    out.push(
      `    <testcase classname="${name}" name="(notebook)" time="0"><failure message="${xml(firstLine(notebook.problem))}">${xml(notebook.problem)}</failure></testcase>`,
    );
  }
  for (const cell of notebook.cells) {
    const open = `    <testcase classname="${name}" name="${xml(cell.name)}" time="${seconds(cell.durationMs)}"`;
    const details = cellDetails(cell).join('\n');
    if (cell.status === 'skipped')
      out.push(`${open}><skipped${cell.problem === undefined ? '' : ` message="${xml(cell.problem)}"`}/></testcase>`);
    else if (cell.status === 'failed')
      out.push(`${open}><failure message="${xml(firstLine(details))}">${xml(details)}</failure></testcase>`);
    else if (details !== '') out.push(`${open}><system-out>${xml(details)}</system-out></testcase>`);
    else out.push(`${open}/>`);
  }
  out.push('  </testsuite>');
  return out;
}

function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

export interface JsonTestReport {
  summary: { passed: number; failed: number; skipped: number; stopped: boolean };
  notebooks: {
    path: string;
    durationMs: number;
    problem?: string;
    cells: {
      index: number;
      cellId?: string;
      name: string;
      status: CellTestResult['status'];
      durationMs: number;
      problem?: string;
      mismatches?: FieldMismatch[];
      drift?: CellTestResult['drift'];
      updated?: boolean;
    }[];
  }[];
}

export function jsonReport(suite: SuiteResult, root: string): JsonTestReport {
  return {
    summary: { passed: suite.passed, failed: suite.failed, skipped: suite.skipped, stopped: suite.stopped },
    notebooks: suite.notebooks.map((n) => ({
      path: relativeTo(root, n.notebook),
      durationMs: Math.round(n.durationMs),
      ...(n.problem === undefined ? {} : { problem: n.problem }),
      cells: n.cells.map((c) => ({
        index: c.index,
        ...(c.cellId === undefined ? {} : { cellId: c.cellId }),
        name: c.name,
        status: c.status,
        durationMs: Math.round(c.durationMs),
        ...(c.problem === undefined ? {} : { problem: c.problem }),
        ...(c.report === undefined || c.report.mismatches.length === 0 ? {} : { mismatches: c.report.mismatches }),
        ...(c.drift === undefined || c.drift.length === 0 ? {} : { drift: c.drift }),
        ...(c.updated === true ? { updated: true } : {}),
      })),
    })),
  };
}

// The plain last line: `N passed, M failed` (`, K skipped` when any).
export function summaryLine(suite: Pick<SuiteResult, 'passed' | 'failed' | 'skipped'>): string {
  return `${suite.passed} passed, ${suite.failed} failed${suite.skipped > 0 ? `, ${suite.skipped} skipped` : ''}`;
}
