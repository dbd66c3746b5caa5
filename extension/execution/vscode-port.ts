import type * as vscode from 'vscode';
import { problemOutput, resultOutput, streamOutput } from '../notebook/result-output.js';
import type { CellExecutionPort } from './cell-job.js';

// The CellExecutionPort over a real NotebookCellExecution.
export function executionPort(execution: vscode.NotebookCellExecution, cellId: string | undefined): CellExecutionPort {
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
        }),
      );
    },
    showProblem: async (problem) => {
      await execution.appendOutput(
        problemOutput(problem.message, { persist: problem.persist, ...(problem.markdown === undefined ? {} : { markdown: problem.markdown }) }),
      );
    },
    end: (success) => execution.end(success, Date.now()),
  };
}
