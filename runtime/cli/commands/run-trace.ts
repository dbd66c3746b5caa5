import path from 'node:path';
import { errorMessage, type RunTraceInput, writeRunTrace } from '../../index.js';
import type { CliIo } from '../usage-error.js';

// `ptc run --trace <file>`: the run as a PTC trace that `ptc import` turns into a replayable notebook.
export async function writeTrace(file: string, input: Omit<RunTraceInput, 'producer'>, io: CliIo): Promise<void> {
  try {
    await writeRunTrace(path.resolve(file), {
      ...input,
      producer: 'ptc run',
      startedAt: new Date(Date.now() - input.result.durationMs).toISOString(),
    });
    io.stderr(`ptc run: wrote the trace to ${file}\n`);
  } catch (error) {
    io.stderr(
      `ptc run: warning: the trace was not written: ${(error as NodeJS.ErrnoException).code ?? errorMessage(error)}\n`,
    );
  }
}
