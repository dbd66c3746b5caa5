import type * as vscode from 'vscode';
import { linkedMessage } from '../notebook/problem-links.js';
import { escapeMarkdown, problemOutput, resultOutput, streamOutput } from '../notebook/result-output.js';
import type { CellExecutionPort } from './cell-job.js';

// The CellExecutionPort over a real NotebookCellExecution.
export interface PortOptions {
  cellId: string | undefined;
  // whether the cell's cassette file exists now (the renderer's Replay button starts from it)
  hasCassette: () => boolean;
}

export function executionPort(execution: vscode.NotebookCellExecution, options: PortOptions): CellExecutionPort {
  const { cellId } = options;
  return {
    token: execution.token,
    setExecutionOrder: (order) => {
      execution.executionOrder = order;
    },
    start: () => execution.start(Date.now()),
    clearOutput: async () => {
      await execution.clearOutput();
    },
    appendLog: async (text, stream) => {
      await execution.appendOutput(streamOutput(text, stream));
    },
    showResult: async (result, context) => {
      await execution.replaceOutput(
        resultOutput(result, {
          program: context.program,
          cellId,
          ...(context.timeoutMs === undefined ? {} : { timeoutMs: context.timeoutMs }),
          ...(context.cassette === undefined ? {} : { cassette: context.cassette }),
          ...(context.expectation === undefined ? {} : { expectation: context.expectation }),
          cellMs: context.cellMs,
          hasCassette: options.hasCassette(),
        }),
      );
    },
    showProblem: async (problem) => {
      const markdown = markdownOf(problem);
      await execution.appendOutput(
        problemOutput(problem.message, { persist: problem.persist, ...(markdown === undefined ? {} : { markdown }) }),
      );
    },
    end: (success) => execution.end(success, Date.now()),
  };
}

// The problem's markdown: its own, or the message (the files it names linked to their line) with its actions as
// command links below it.
function markdownOf(problem: {
  message: string;
  markdown?: string;
  actions?: { title: string; command: string }[];
}): string | undefined {
  if (problem.markdown !== undefined || problem.actions === undefined || problem.actions.length === 0)
    return problem.markdown;
  return `${linkedMessage(problem.message)}\n\n${problem.actions.map((a) => `[${escapeMarkdown(a.title)}](command:${a.command})`).join(' · ')}`;
}
