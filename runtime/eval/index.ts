// `ptc eval`: tasks × models × modes × samples, each an agent loop whose answer is checked.
export {
  parseTasks,
  EvalTaskSchema,
  ModelOptionsSchema,
  ModelOptionsTableSchema,
  modelOptionsFor,
  type ModelOptionsTable,
  TASK_LIMITS,
  type Check,
  type EvalTask,
  type TasksParse,
} from './tasks.js';
export { checkAnswer, jsonIn, subsetMiss, type CheckVerdict } from './checks.js';
export {
  plannedRuns,
  replayProblems,
  runEval,
  summarize,
  type EvalDetail,
  type EvalModel,
  type EvalOptions,
  type EvalRun,
  type EvalSummaryRow,
  type Shard,
} from './run-eval.js';
export { failureText, reportNotebook, summaryTable, transcriptName } from './report.js';
export { mergeEvalFiles, type MergedRun, type MergeOutcome } from './merge.js';
