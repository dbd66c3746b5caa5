import { tempDirProblem } from '../index.js';
import { UsageError } from './usage-error.js';

// Commands that run programs check the host environment first: a misconfiguration is one line and exit 2.
export function requireRunnableEnvironment(): void {
  const problem = tempDirProblem();
  if (problem !== undefined) throw new UsageError(problem);
}
