import type { FailureKind, RunFailure } from '../../runtime/protocol/run-result.js';
import { formatBytes, formatCount, formatDuration } from './format.js';
import { splitFailureMessage } from './stack-frames.js';

export interface ExplainOptions {
  // the deadline the run had (from the output payload); else read from the runtime's message
  timeoutMs?: number | undefined;
  // how long the run lasted, for cancellations
  durationMs?: number | undefined;
  // "tools.forecast" when the exception came from a binding call the program did not catch
  failingCall?: string | undefined;
}

type Failure = Pick<RunFailure, 'kind' | 'message'> & Partial<Pick<RunFailure, 'location'>>;

// Plain words for a failure, with the numbers the runtime reported (deadline, exit code, output cap…).
export function explainFailure(failure: Failure, options: ExplainOptions = {}): string {
  const message = failure.message;
  switch (failure.kind) {
    case 'exception': {
      if (options.failingCall !== undefined) return `the binding call ${options.failingCall} failed and the program did not catch the error`;
      // Python puts the exception line after the traceback: take the name from the headline
      const name = /^([A-Z][\w$.]*(?:Error|Exception|Interrupt|Exit))\b/.exec(splitFailureMessage(message).headline)?.[1];
      const line = failure.location === undefined ? '' : ` at line ${failure.location.line}`;
      if (name === 'SyntaxError' || name === 'IndentationError') return `the program could not be parsed (${name}${line})`;
      return `the program threw ${name === undefined ? 'an error' : article(name)}${line} and did not return`;
    }
    case 'timeout': {
      const ms = options.timeoutMs ?? numberIn(message, /(\d+(?:\.\d+)?)\s*ms\b/);
      return ms === undefined ? 'the program ran past its deadline and was stopped' : `the program ran past its ${ms} ms deadline and was stopped`;
    }
    case 'abort':
      return options.durationMs === undefined
        ? 'the run was cancelled before the program finished'
        : `the run was cancelled after ${formatDuration(options.durationMs)}, before the program finished`;
    case 'worker-exit': {
      if (/out of memory|MemoryError/i.test(message)) return 'the process running the program ran out of memory and died before it finished';
      const signal = /\bsignal (SIG[A-Z0-9]+)/.exec(message)?.[1];
      if (signal !== undefined) return `the process running the program was killed by ${signal} before it finished`;
      const code = numberIn(message, /\b(?:exit )?code (-?\d+)/);
      if (code !== undefined) return `the process running the program exited with code ${code} before it finished`;
      return 'the process running the program died before it finished (out of memory, exit() or a crash)';
    }
    case 'invalid-output': {
      const at = /(\$[^\s]*) is (.+)$/.exec(message);
      const where = at === null ? '' : `: at ${at[1]} it is ${at[2]}`;
      return `the program returned something that is not plain JSON (undefined, a function, NaN, a cycle…)${where}`;
    }
    case 'output-limit': {
      const entries = numberIn(message, /exceeded (\d+) log entries/);
      if (entries !== undefined)
        return `the program printed more than ${formatCount(entries)} lines (entries cost the host memory however short they are); output was cut and the value dropped`;
      const bytes = numberIn(message, /exceeded (\d+) bytes/);
      const cap = bytes === undefined ? 'the output cap' : `the ${bytes}-byte output cap${bytes >= 1024 ? ` (${formatBytes(bytes)})` : ''}`;
      return `the printed output plus the return value went over ${cap}; output was cut and the value dropped`;
    }
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

function numberIn(text: string, pattern: RegExp): number | undefined {
  const raw = pattern.exec(text)?.[1];
  const n = raw === undefined ? Number.NaN : Number(raw);
  return Number.isFinite(n) ? n : undefined;
}

function article(name: string): string {
  return /^[AEIOU]/.test(name) ? `an ${name}` : `a ${name}`;
}
