import fs from 'node:fs';
import path from 'node:path';
import type { BindingNamespace } from '../../api.js';
import { BindingsModuleError } from '../../bindings/module-format.js';
import { loadBindingsModule, namespacesFor } from '../../bindings/module-loader.js';
import { RuntimeMisuseError } from '../../contract/misuse.js';
import { createRuntime } from '../../index.js';
import type { RunResult } from '../../protocol/run-result.js';
import { formatReport } from '../report.js';
import { languageFromFile, parseRunFlags } from '../run-options.js';
import { UsageError, type CliCommand, type CliIo } from '../usage-error.js';

const USAGE = `ptc run <file> [--language typescript|python] [--bindings <module>] [--mode mock|live]
        [--timeout-ms N] [--max-output-bytes N] [--memory-mb N] [--sandbox required|best-effort|off] [--json]`;

// `ptc run`: one program, one fresh sandboxed process, one RunResult.
export const runCommand: CliCommand = {
  name: 'run',
  summary: 'run a model program once and print its result',
  usage: USAGE,
  async run(argv, io) {
    const flags = parseRunFlags(argv);
    // installed first, so an interrupt during start-up aborts the run instead of killing the CLI
    const controller = new AbortController();
    const onSignal = (signal: NodeJS.Signals): void => controller.abort(new Error(`interrupted by ${signal}`));
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    try {
      return await runWith(flags, controller, io);
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
  },
};

async function runWith(flags: ReturnType<typeof parseRunFlags>, controller: AbortController, io: CliIo): Promise<number> {
    const file = path.resolve(flags.file);
    let program: string;
    try {
      program = fs.readFileSync(file, 'utf8');
    } catch {
      throw new UsageError(`cannot read program file: ${flags.file}`);
    }
    const language = flags.language ?? languageFromFile(file);
    if (language === undefined) throw new UsageError(`cannot tell the language of ${flags.file}: use --language typescript|python`);
    let bindings: BindingNamespace[] = [];
    if (flags.bindings !== undefined) {
      try {
        bindings = namespacesFor(await loadBindingsModule(flags.bindings), flags.mode);
      } catch (error) {
        if (error instanceof BindingsModuleError) throw new UsageError(error.message);
        throw error;
      }
    }
    const runtime = createRuntime();
    let result: RunResult;
    try {
      const spec = runtime.resolve({
        language,
        program,
        bindings,
        timeoutMs: flags.timeoutMs,
        maxOutputBytes: flags.maxOutputBytes,
        memoryMb: flags.memoryMb,
        sandbox: flags.sandbox,
        signal: controller.signal,
      });
      result = await runtime.run(spec);
    } catch (error) {
      if (error instanceof RuntimeMisuseError) throw new UsageError(error.message);
      throw error;
    } finally {
      await runtime.dispose();
    }
    result.mode = flags.mode;
    io.stdout(flags.json ? `${JSON.stringify(result)}\n` : formatReport(result, program));
    return result.error === undefined ? 0 : 1;
}
