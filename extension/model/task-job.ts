import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import * as vscode from 'vscode';
import {
  CellIdSchema,
  loopTraceLines,
  modelOptionsFor,
  modelView,
  runAgentLoop,
  RunResultSchema,
  writeLinesAtomically,
  type ChatReply,
  type Language,
  type LoopOutcome,
  type LoopProgram,
  type PlanOverride,
  type ProgramRun,
  type SdkSource,
} from '../../runtime/index.js';
import type { SessionService } from '../bindings/session-service.js';
import { readConfig } from '../config/config.js';
import type { Logger } from '../log/logger.js';
import { newCellId } from '../notebook/cell-ids.js';
import { outputMetaOf } from '../notebook/output-meta.js';
import { payloadOf, problemOutput, type ProblemOptions } from '../notebook/result-output.js';
import type { ModelChoices } from './model-choice.js';
import { modelHelp } from './model-help.js';
import { ReplyView } from './reply-view.js';

export interface TaskJobDeps {
  log: Logger;
  choices: ModelChoices;
  bindings: SessionService;
  // runs a code cell through the controller (its queue, outputs and record/replay) and resolves once it ran
  runCell: (cell: vscode.NotebookCell, override: PlanOverride) => Promise<void>;
}

// transcripts of task cells' loops, next to the cassettes
export const TRANSCRIPT_DIR = path.join('.ptc', 'transcripts');

// Runs a task cell: the model view and the task go to the picked model; each program it writes becomes a code cell
// below (metadata: model, prompt hash, tokens, latency), runs with its calls recorded to the cell's own cassette,
// and its result goes back while turns remain; a final answer becomes a markdown cell. The loop is saved as a trace.
export async function runTaskJob(
  cell: vscode.NotebookCell,
  execution: vscode.NotebookCellExecution,
  deps: TaskJobDeps,
): Promise<void> {
  const { log } = deps;
  const notebook = cell.notebook;
  execution.start(Date.now());
  await execution.clearOutput();
  const finish = async (success: boolean, message: string, options: Partial<ProblemOptions> = {}): Promise<void> => {
    await execution.replaceOutput(
      problemOutput(message, { ...options, persist: false, severity: success ? 'info' : 'error' }),
    );
    execution.end(success, Date.now());
  };
  const fail = (message: string): Promise<void> => finish(false, message);
  if (!vscode.workspace.isTrusted)
    return fail(
      vscode.l10n.t(
        "Task cells run the programs a model writes with this notebook's bindings, which are code: trust the workspace to run them.",
      ),
    );
  const task = cell.document.getText().trim();
  if (task === '') return fail(vscode.l10n.t('This task cell is empty: write the task in plain words.'));
  const choice = await deps.choices.clientFor(notebook);
  if (!choice.ok)
    return choice.help === undefined ? fail(choice.message) : finish(false, choice.message, modelHelp(choice.help));
  const { client } = choice;
  const described = await deps.bindings.describe(notebook);
  if (described !== undefined && !described.ok)
    return fail(vscode.l10n.t('The bindings module could not be loaded: {0}', described.message));
  const module: SdkSource = described?.module ?? { namespaces: {} };
  const language = taskLanguage(cell, notebook);
  const config = readConfig(notebook.uri).config;
  const maxTurns = turnsOf(cell) ?? config['model.maxTurns'];
  const modelOptions = modelOptionsFor(config['model.options'], client.label);
  const view = modelView({ module, language, task, mode: 'code' });
  const taskId = await ensureTaskId(cell);
  const controller = new AbortController();
  // Stop aborts the model request itself (the HTTP request is closed), not only the loop after it
  const cancellation = execution.token.onCancellationRequested(() => controller.abort());
  // the reply and the program it writes appear in the task cell as they stream in
  const replyView = new ReplyView({ execution, language, model: client.label });
  log.info(
    `task ${taskId}: asking ${client.label} (${language}, up to ${maxTurns} turn(s), prompt ${view.promptHash})`,
  );
  let last: vscode.NotebookCell = cell;
  let reply: { turn: number; reply: ChatReply } | undefined;
  const insert = async (data: vscode.NotebookCellData): Promise<vscode.NotebookCell | undefined> => {
    const at = Math.min(last.index + 1, notebook.cellCount);
    const edit = new vscode.WorkspaceEdit();
    edit.set(notebook.uri, [vscode.NotebookEdit.insertCells(at, [data])]);
    if (!(await vscode.workspace.applyEdit(edit))) return undefined;
    last = notebook.cellAt(at);
    return last;
  };
  const runProgram = async (program: LoopProgram): Promise<ProgramRun> => {
    const data = new vscode.NotebookCellData(vscode.NotebookCellKind.Code, program.source, program.language);
    const taken = new Set(
      notebook.getCells().flatMap((c) => (typeof c.metadata.id === 'string' ? [c.metadata.id] : [])),
    );
    const wanted = `${taskId}-${program.id}`.slice(0, 64);
    data.metadata = {
      id: taken.has(wanted) ? newCellId(taken) : wanted,
      generated: {
        task: taskId,
        model: client.label,
        promptHash: view.promptHash,
        turn: program.turn,
        ...(reply === undefined
          ? {}
          : {
              tokensIn: reply.reply.usage.inputTokens,
              tokensOut: reply.reply.usage.outputTokens,
              latencyMs: Math.round(reply.reply.latencyMs),
            }),
        ...(program.description === undefined ? {} : { description: program.description }),
      },
    };
    const inserted = await insert(data);
    if (inserted === undefined) return { kind: 'not-run', message: 'the program cell could not be inserted' };
    // every turn's calls are recorded to the generated cell's own cassette (.ptc/cassettes/<cell id>.json)
    await deps.runCell(inserted, { force: { mode: 'record' } });
    return lastRunOf(inserted);
  };
  let outcome: LoopOutcome;
  try {
    outcome = await runAgentLoop({
      client,
      view,
      maxTurns,
      modelOptions,
      signal: controller.signal,
      runProgram,
      onProgress: (turn, progress) => replyView.show(turn, progress),
      onReply: (turn, r) => {
        reply = { turn, reply: r };
        log.info(
          `task ${taskId}: turn ${turn}: ${r.toolCalls.length} tool call(s), ${r.usage.inputTokens}/${r.usage.outputTokens} tokens, ${Math.round(r.latencyMs)} ms`,
        );
      },
    });
  } finally {
    cancellation.dispose();
    await replyView.close();
  }
  if (outcome.answer !== undefined) {
    const answer = new vscode.NotebookCellData(vscode.NotebookCellKind.Markup, outcome.answer, 'markdown');
    answer.metadata = {
      generated: {
        task: taskId,
        model: client.label,
        promptHash: view.promptHash,
        answer: true,
        turn: outcome.turns.length,
      },
    };
    await insert(answer);
  }
  const transcript = await saveTranscript(notebook, taskId, { outcome, task, model: client.label, module }, log);
  if (outcome.status === 'aborted') {
    await execution.replaceOutput(problemOutput(vscode.l10n.t('Cancelled.'), { persist: false, severity: 'info' }));
    execution.end(undefined, Date.now());
    return;
  }
  const programs = outcome.turns.reduce((n, t) => n + t.steps.length, 0);
  const refused = outcome.turns.flatMap((t) => t.refused.map((r) => `turn ${t.index}: ${r.message}`));
  const head = `${client.label} · ${outcome.turns.length} turn(s) · ${programs} program(s) · ${outcome.usage.inputTokens}/${outcome.usage.outputTokens} tokens · ${Math.round(outcome.latencyMs)} ms`;
  const lines = [head];
  let success = false;
  if (outcome.status === 'answered' && programs === 0 && maxTurns === 1)
    lines.push(vscode.l10n.t('The model answered without writing a program (its answer is below).'));
  else if (outcome.status === 'answered') success = true;
  else if (outcome.status === 'turn-limit' && maxTurns === 1 && programs > 0) success = true;
  else if (outcome.status === 'turn-limit' && programs === 0)
    lines.push(vscode.l10n.t('The model wrote no program that could run.'));
  else if (outcome.message !== undefined) lines.push(outcome.message);
  lines.push(...refused.slice(0, 5));
  if (transcript !== undefined) lines.push(`${vscode.l10n.t('Transcript')}: ${transcript}`);
  await finish(success, lines.join('\n'));
}

// The program language: the task's `language` metadata, else the notebook's first code cell's, else TypeScript.
function taskLanguage(cell: vscode.NotebookCell, notebook: vscode.NotebookDocument): Language {
  const own: unknown = cell.metadata.language;
  if (own === 'typescript' || own === 'python') return own;
  const first = notebook
    .getCells()
    .find(
      (c) =>
        c.kind === vscode.NotebookCellKind.Code &&
        (c.document.languageId === 'typescript' || c.document.languageId === 'python'),
    );
  return first?.document.languageId === 'python' ? 'python' : 'typescript';
}

function turnsOf(cell: vscode.NotebookCell): number | undefined {
  const turns: unknown = cell.metadata.turns;
  return typeof turns === 'number' && Number.isInteger(turns) && turns >= 1 && turns <= 50 ? turns : undefined;
}

async function ensureTaskId(cell: vscode.NotebookCell): Promise<string> {
  const own: unknown = cell.metadata.id;
  if (typeof own === 'string' && CellIdSchema.safeParse(own).success) return own;
  const taken = new Set(
    cell.notebook.getCells().flatMap((c) => (typeof c.metadata.id === 'string' ? [c.metadata.id] : [])),
  );
  const id = `task-${newCellId(taken)}`;
  const edit = new vscode.WorkspaceEdit();
  edit.set(cell.notebook.uri, [vscode.NotebookEdit.updateCellMetadata(cell.index, { ...cell.metadata, id })]);
  await vscode.workspace.applyEdit(edit);
  return id;
}

// The run a generated cell just finished: its result, or the message it showed instead.
function lastRunOf(cell: vscode.NotebookCell): ProgramRun {
  for (const output of [...cell.outputs].reverse()) {
    const meta = outputMetaOf(output.metadata);
    if (meta?.kind === 'problem') return { kind: 'not-run', message: meta.message };
    if (meta?.kind !== 'result') continue;
    const payload = payloadOf(output);
    const parsed = RunResultSchema.safeParse(
      payload !== null && typeof payload === 'object' ? (payload as { result?: unknown }).result : undefined,
    );
    if (parsed.success) return { kind: 'result', result: parsed.data };
  }
  return { kind: 'not-run', message: 'the program cell did not run' };
}

async function saveTranscript(
  notebook: vscode.NotebookDocument,
  taskId: string,
  input: { outcome: LoopOutcome; task: string; model: string; module: SdkSource },
  log: Logger,
): Promise<string | undefined> {
  if (notebook.uri.scheme !== 'file') return undefined;
  const relative = path.join(TRANSCRIPT_DIR, `${taskId}.jsonl`);
  const file = path.join(path.dirname(notebook.uri.fsPath), relative);
  try {
    await mkdir(path.dirname(file), { recursive: true });
    await writeLinesAtomically(file, loopTraceLines({ ...input, producer: 'PTC Playground task cell' }));
    return relative.split(path.sep).join('/');
  } catch (error) {
    log.warn(`task ${taskId}: the transcript was not written`, error);
    return undefined;
  }
}
