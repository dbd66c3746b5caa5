import type { FailureKind } from '../../runtime/protocol/run-result.js';

export interface ExplainOptions {
  timeoutMs?: number | undefined;
}

// Plain words for each failure kind: what happened, as a user would say it.
export function explainFailure(kind: FailureKind, options: ExplainOptions = {}): string {
  switch (kind) {
    case 'exception':
      return 'the program threw an error (or could not be parsed) and did not return';
    case 'timeout':
      return options.timeoutMs === undefined
        ? 'the program ran past its deadline and was stopped'
        : `the program ran past its ${options.timeoutMs} ms deadline and was stopped`;
    case 'abort':
      return 'the run was cancelled before the program finished';
    case 'worker-exit':
      return 'the process running the program died before it finished (out of memory, exit() or a crash)';
    case 'invalid-output':
      return 'the program returned something that is not plain JSON (undefined, a function, NaN, a cycle…)';
    case 'output-limit':
      return 'the printed output plus the return value went over the output cap; output was cut and the value dropped';
    case 'protocol':
      return 'the program sent the host invalid control traffic (e.g. called an undeclared binding, or too many calls at once)';
    case 'sandbox-unavailable':
      return 'the required sandbox could not be set up, so the program was not started';
  }
}

// Short badge titles for each kind.
export const FAILURE_TITLES: Readonly<Record<FailureKind, string>> = {
  exception: 'Exception',
  timeout: 'Timeout',
  abort: 'Cancelled',
  'worker-exit': 'Process died',
  'invalid-output': 'Invalid return value',
  'output-limit': 'Output limit',
  protocol: 'Protocol violation',
  'sandbox-unavailable': 'Sandbox unavailable',
};
