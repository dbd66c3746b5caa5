import * as vscode from 'vscode';
import {
  callCount,
  encodeChecked,
  fitResult,
  type ExpectationReport,
  type JsonValue,
  type RunResult,
} from '../../runtime/index.js';
import {
  MAX_PROBLEM_TEXT,
  PROBLEM_MIME,
  ProblemPayloadSchema,
  RESULT_MIME,
  type ProblemAction,
  type ProblemLink,
  type ProblemPayload,
  type ResultPayload,
} from '../../webview/protocol/index.js';
import { formatResultText } from '../../webview/shared/index.js';
import type { OutputMeta } from './output-meta.js';

const encoder = new TextEncoder();

// The text/plain fallback; never throws (the renderer has the full picture).
function fallbackText(result: RunResult, timeoutMs: number | undefined): string {
  try {
    return formatResultText(result, { timeoutMs });
  } catch {
    return result.error === undefined
      ? '✓ succeeded (the value is too deep to show as text)'
      : `✗ ${result.error.kind}: ${result.error.message}`;
  }
}

export interface ResultOutputContext {
  program: string;
  cellId: string | undefined;
  timeoutMs?: number;
  cassette?: string;
  expectation?: ExpectationReport;
  // a note saved with the result (what an earlier fit left out)
  note?: string;
  // the cell's whole time (queue and start-up included), when it ran in this window
  cellMs?: number;
  hasCassette?: boolean;
}

// One output per result, within the per-cell output budget: the rich payload, the built-in error view for
// failures, and a plain-text fallback.
export function resultOutput(full: RunResult, context: ResultOutputContext): vscode.NotebookCellOutput {
  const fitted = fitResult(full);
  const result = fitted.result;
  const note = [context.note, fitted.note].filter((n) => n !== undefined).join(' ');
  const payload: ResultPayload = {
    result,
    program: context.program,
    language: result.language,
    ...(context.cellId === undefined ? {} : { cellId: context.cellId }),
    ...(context.timeoutMs === undefined ? {} : { timeoutMs: context.timeoutMs }),
    ...(context.expectation === undefined ? {} : { expectation: context.expectation }),
    ...(note === '' ? {} : { note }),
    ...(context.cellMs === undefined ? {} : { cellMs: Math.round(context.cellMs) }),
    ...(context.hasCassette === undefined ? {} : { hasCassette: context.hasCassette }),
  };
  // NotebookCellOutputItem.json() recurses in JSON.stringify; deep return values are normal here
  const items = [
    new vscode.NotebookCellOutputItem(encoder.encode(encodeChecked(payload as unknown as JsonValue, 0)), RESULT_MIME),
  ];
  // a cancelled run is not an error: no red error box, the cell also ends without ✓/✗
  if (result.error !== undefined && result.error.kind !== 'abort') {
    const error = new Error(result.error.message);
    error.name = result.error.kind;
    error.stack = `${result.error.kind}: ${result.error.message}${result.error.location === undefined ? '' : `\n    at program line ${result.error.location.line}${result.error.location.column === undefined ? '' : `:${result.error.location.column}`}`}`;
    items.push(vscode.NotebookCellOutputItem.error(error));
  }
  items.push(vscode.NotebookCellOutputItem.text(fallbackText(result, context.timeoutMs), 'text/plain'));
  const meta: OutputMeta = {
    kind: 'result',
    durationMs: result.durationMs,
    ...(context.cellMs === undefined ? {} : { cellMs: Math.round(context.cellMs) }),
    callCount: callCount(result),
    ...(result.error === undefined ? {} : { failureKind: result.error.kind }),
    ...(result.mode === undefined ? {} : { mode: result.mode }),
    ...(result.replay === undefined
      ? {}
      : {
          replay: {
            matched: result.replay.matched,
            diverged: result.replay.divergedTotal ?? result.replay.diverged.length,
            unused: result.replay.unused,
          },
        }),
    ...(context.cassette === undefined ? {} : { cassette: context.cassette }),
    ...(context.expectation === undefined ? {} : { expectation: context.expectation.ok ? 'passed' : 'failed' }),
  };
  return new vscode.NotebookCellOutput(items, { ptc: meta });
}

export interface ProblemOptions {
  // whether the message is saved with the notebook
  persist: boolean;
  // 'info' for what is not a failure (a task cell's summary)
  severity?: 'error' | 'info';
  // the spans of the message that name a file (see problem-links.ts; computed by the caller, which has the disk)
  links?: ProblemLink[];
  // what fixes it, as buttons of the renderer (a link in a notebook output cannot run an extension's command)
  actions?: ProblemAction[];
  // a paragraph below the actions
  detail?: string;
}

// A cell that could not run: the payload our renderer draws (message, file links, action buttons), with markdown and
// plain text for everything else that reads outputs.
export function problemOutput(message: string, options: ProblemOptions): vscode.NotebookCellOutput {
  const meta: OutputMeta = { kind: 'problem', message, persist: options.persist };
  const payload: ProblemPayload = {
    message: message.slice(0, MAX_PROBLEM_TEXT),
    ...(options.severity === undefined ? {} : { severity: options.severity }),
    ...(options.actions === undefined || options.actions.length === 0 ? {} : { actions: options.actions }),
    ...(options.detail === undefined ? {} : { detail: options.detail.slice(0, MAX_PROBLEM_TEXT) }),
  };
  const linked: ProblemPayload =
    options.links === undefined || options.links.length === 0
      ? payload
      : { ...payload, links: options.links.slice(0, 50) };
  // the renderer refuses a payload that breaks its schema: links it would refuse (a path too long) are left out
  const checked = ProblemPayloadSchema.safeParse(linked).success ? linked : payload;
  const text = options.detail === undefined ? message : `${message}\n\n${options.detail}`;
  return new vscode.NotebookCellOutput(
    [
      vscode.NotebookCellOutputItem.json(checked, PROBLEM_MIME),
      vscode.NotebookCellOutputItem.text(escapeMarkdown(text).replace(/\n/g, '  \n'), 'text/markdown'),
      vscode.NotebookCellOutputItem.text(text, 'text/plain'),
    ],
    { ptc: meta },
  );
}

// Live log lines while the cell runs.
export function streamOutput(text: string, stream: 'stdout' | 'stderr'): vscode.NotebookCellOutput {
  const item =
    stream === 'stdout' ? vscode.NotebookCellOutputItem.stdout(text) : vscode.NotebookCellOutputItem.stderr(text);
  const meta: OutputMeta = { kind: 'stream' };
  return new vscode.NotebookCellOutput([item], { ptc: meta });
}

export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}

// The payload of one of our result outputs, decoded without trusting it.
export function payloadOf(output: vscode.NotebookCellOutput): unknown {
  const item = output.items.find((i) => i.mime === RESULT_MIME);
  if (item === undefined) return undefined;
  try {
    return JSON.parse(new TextDecoder().decode(item.data)) as unknown;
  } catch {
    return undefined;
  }
}
