import type { FailureKind, RunFailure } from '../../runtime/protocol/run-result.js';
import { formatBytes, formatCount, formatDuration } from './format.js';
import { splitFailureMessage } from './stack-frames.js';
import type { Translate } from './translate.js';

export interface ExplainOptions {
  // the deadline the run had (from the output payload); else read from the runtime's message
  timeoutMs?: number | undefined;
  // how long the run lasted, for cancellations
  durationMs?: number | undefined;
  // "tools.forecast" when the exception came from a binding call the program did not catch
  failingCall?: string | undefined;
}

type Failure = Pick<RunFailure, 'kind' | 'message'> & Partial<Pick<RunFailure, 'location'>>;

// Plain words for a failure, with the numbers the runtime reported (deadline, exit code, output cap…), through `t`.
export function explainFailure(failure: Failure, t: Translate, options: ExplainOptions = {}): string {
  const message = failure.message;
  switch (failure.kind) {
    case 'exception': {
      if (options.failingCall !== undefined)
        return t('the binding call {0} failed and the program did not catch the error', options.failingCall);
      // Python puts the exception line after the traceback: take the name from the headline
      const name = /^([A-Z][\w$.]*(?:Error|Exception|Interrupt|Exit))\b/.exec(
        splitFailureMessage(message).headline,
      )?.[1];
      const line = failure.location?.line;
      if (name === 'SyntaxError' || name === 'IndentationError')
        return line === undefined
          ? t('the program could not be parsed ({0})', name)
          : t('the program could not be parsed ({0} at line {1})', name, line);
      if (name === undefined)
        return line === undefined
          ? t('the program threw an error and did not return')
          : t('the program threw an error at line {0} and did not return', line);
      // the English article follows the name's first letter; a translation may use one wording for both
      if (/^[AEIOU]/.test(name))
        return line === undefined
          ? t('the program threw an {0} and did not return', name)
          : t('the program threw an {0} at line {1} and did not return', name, line);
      return line === undefined
        ? t('the program threw a {0} and did not return', name)
        : t('the program threw a {0} at line {1} and did not return', name, line);
    }
    case 'timeout': {
      const ms = options.timeoutMs ?? numberIn(message, /(\d+(?:\.\d+)?)\s*ms\b/);
      return ms === undefined
        ? t('the program ran past its deadline and was stopped')
        : t('the program ran past its {0} ms deadline and was stopped', ms);
    }
    case 'abort':
      return options.durationMs === undefined
        ? t('the run was cancelled before the program finished')
        : t('the run was cancelled after {0}, before the program finished', formatDuration(options.durationMs, t));
    case 'worker-exit': {
      if (/out of memory|MemoryError/i.test(message))
        return t('the process running the program ran out of memory and died before it finished');
      const signal = /\bsignal (SIG[A-Z0-9]+)/.exec(message)?.[1];
      if (signal !== undefined)
        return t('the process running the program was killed by {0} before it finished', signal);
      const code = numberIn(message, /\b(?:exit )?code (-?\d+)/);
      if (code !== undefined) return t('the process running the program exited with code {0} before it finished', code);
      return t('the process running the program died before it finished (out of memory, exit() or a crash)');
    }
    case 'invalid-output': {
      const at = /(\$[^\s]*) is (.+)$/.exec(message);
      return at === null
        ? t('the program returned something that is not plain JSON (undefined, a function, NaN, a cycle…)')
        : t(
            'the program returned something that is not plain JSON (undefined, a function, NaN, a cycle…): at {0} it is {1}',
            at[1] ?? '',
            at[2] ?? '',
          );
    }
    case 'output-limit': {
      const entries = numberIn(message, /exceeded (\d+) log entries/);
      if (entries !== undefined)
        return t(
          'the program printed more than {0} lines (entries cost the host memory however short they are); output was cut and the value dropped',
          formatCount(entries),
        );
      const bytes = numberIn(message, /exceeded (\d+) bytes/);
      if (bytes === undefined)
        return t(
          'the printed output plus the return value went over the output cap; output was cut and the value dropped',
        );
      if (bytes < 1024)
        return t(
          'the printed output plus the return value went over the {0}-byte output cap; output was cut and the value dropped',
          bytes,
        );
      return t(
        'the printed output plus the return value went over the {0}-byte output cap ({1}); output was cut and the value dropped',
        bytes,
        formatBytes(bytes, t),
      );
    }
    case 'protocol':
      return t(
        'the program sent the host invalid control traffic (e.g. called an undeclared binding, or too many calls at once)',
      );
    case 'sandbox-unavailable':
      return t('the required sandbox could not be set up, so the program was not started');
    case 'call-limit': {
      const max = numberIn(message, /maxCalls (\d+)/);
      return max === undefined
        ? t('the program used up its binding-call budget and was stopped; raise maxCalls if it needs more')
        : t(
            'the program made more than {0} binding calls, its budget for one run, and was stopped; raise maxCalls if it needs more',
            formatCount(max),
          );
    }
  }
}

// Short badge titles for each kind.
export function failureTitle(kind: FailureKind, t: Translate): string {
  switch (kind) {
    case 'exception':
      return t('Exception');
    case 'timeout':
      return t('Timeout');
    case 'abort':
      return t('Cancelled');
    case 'worker-exit':
      return t('Process died');
    case 'invalid-output':
      return t('Invalid return value');
    case 'output-limit':
      return t('Output limit');
    case 'protocol':
      return t('Protocol violation');
    case 'sandbox-unavailable':
      return t('Sandbox unavailable');
    case 'call-limit':
      return t('Call limit');
  }
}

function numberIn(text: string, pattern: RegExp): number | undefined {
  const raw = pattern.exec(text)?.[1];
  const n = raw === undefined ? Number.NaN : Number(raw);
  return Number.isFinite(n) ? n : undefined;
}
