import type * as vscode from 'vscode';
import { problemLinks } from '../notebook/problem-links.js';
import { problemOutput, resultOutput, streamOutput } from '../notebook/result-output.js';
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
      // the files a problem names (a bindings module, the line esbuild points at) open from the output
      await execution.appendOutput(
        problemOutput(problem.message, {
          persist: problem.persist,
          links: problemLinks(problem.message),
          ...(problem.actions === undefined ? {} : { actions: problem.actions }),
        }),
      );
    },
    end: (success) => execution.end(success, Date.now()),
  };
}
