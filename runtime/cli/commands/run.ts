import fs from 'node:fs';
import path from 'node:path';
import type { BindingNamespace } from '../../api.js';
import { BindingsModuleError, type BindingsModule } from '../../bindings/module-format.js';
import { loadBindingsModule, namespacesFor } from '../../bindings/module-loader.js';
import { RuntimeMisuseError } from '../../contract/misuse.js';
import { createRuntime } from '../../index.js';
import type { RunResult } from '../../protocol/run-result.js';
import {
  cassetteDrift,
  createRecorder,
  declaredFromCassette,
  declaredFromModule,
  DEFAULT_DETERMINISTIC,
  loadCassette,
  replayNamespaces,
  saveCassette,
  type Cassette,
  type Recorder,
  type Replay,
} from '../../replay/index.js';
import { printResult } from '../print-result.js';
import { visibleText } from '../terminal-text.js';
import { writeTrace } from './run-trace.js';
import { languageFromFile, parseRunFlags } from '../run-options.js';
import { requireRunnableEnvironment } from '../environment.js';
import { UsageError, type CliCommand } from '../usage-error.js';

const USAGE = `ptc run <file> [--language typescript|python] [--bindings <module>] [--mode mock|live]
        [--record <cassette.json> | --replay <cassette.json>] [--deterministic] [--seed N] [--trace <trace.jsonl>]
        [--timeout-ms N] [--max-output-bytes N] [--memory-mb N] [--tmp-mb N] [--sandbox required|best-effort|off] [--json]`;

// `ptc run`: one program, one fresh sandboxed process, one RunResult.
export const runCommand: CliCommand = {
  name: 'run',
  summary: 'run a model program once and print its result',
  usage: USAGE,
  async run(argv, io) {
    const flags = parseRunFlags(argv);
    requireRunnableEnvironment();
    const file = path.resolve(flags.file);
    let program: string;
    try {
      program = fs.readFileSync(file, 'utf8');
    } catch {
      throw new UsageError(`cannot read program file: ${flags.file}`);
    }
    const language = flags.language ?? languageFromFile(file);
    if (language === undefined) throw new UsageError(`cannot tell the language of ${flags.file}: use --language typescript|python`);
    const warn = (message: string): void => io.stderr(`ptc run: warning: ${visibleText(message)}\n`);
    let cassette: Cassette | undefined;
    if (flags.replay !== undefined) {
      const loaded = await loadCassette(flags.replay);
      if (!loaded.ok) throw new UsageError(loaded.message);
      cassette = loaded.cassette;
    }
    // a deterministic replay reuses the clock and seed the cassette was recorded with
    const deterministic = flags.deterministic ? (cassette?.deterministic ?? DEFAULT_DETERMINISTIC) : undefined;
    if (cassette?.deterministic !== undefined && !flags.deterministic)
      warn('the cassette was recorded with --deterministic; add it to reproduce clock and random values');
    let module: BindingsModule | undefined;
    try {
      if (flags.bindings !== undefined) {
        try {
          // a replay never calls a server, so one that cannot start (offline, not installed) only costs the drift check
          module = await loadBindingsModule(flags.bindings, cassette === undefined ? {} : { mcp: 'optional', onWarning: warn });
        } catch (error) {
          if (error instanceof BindingsModuleError) throw new UsageError(error.message);
          throw error;
        }
      }
      let bindings: BindingNamespace[] = [];
      let replay: Replay | undefined;
      let recorder: Recorder | undefined;
      if (cassette !== undefined) {
        if (module !== undefined) for (const drift of cassetteDrift(cassette, module)) warn(`schema drift: ${drift}`);
        replay = replayNamespaces(cassette, module !== undefined ? declaredFromModule(module, cassette) : declaredFromCassette(cassette));
        bindings = replay.namespaces;
      } else if (module !== undefined) {
        const seed = flags.seed ?? deterministic?.seed;
        bindings = namespacesFor(module, flags.mode, { onWarning: warn, ...(seed === undefined ? {} : { seed }) });
      }
      if (flags.record !== undefined) {
        recorder = createRecorder();
        bindings = recorder.wrap(bindings);
      }
      const result = await execute(flags, language, program, bindings, deterministic);
      if (replay !== undefined) {
        result.replay = replay.report();
        result.mode = 'replay';
        if (result.replay.unused > 0) warn(`${result.replay.unused} recorded call(s) in ${flags.replay} were not used`);
      } else result.mode = flags.mode;
      if (recorder !== undefined && flags.record !== undefined) {
        if (result.error?.kind === 'abort') warn(`the run was interrupted; ${flags.record} was not written`);
        else {
          const recorded = recorder.cassette(deterministic ? { deterministic } : {});
          await saveCassette(path.resolve(flags.record), recorded);
          io.stderr(`ptc run: recorded ${recorded.calls.length} call(s) to ${flags.record}\n`);
        }
      }
      if (flags.trace !== undefined) await writeTrace(flags.trace, { program, language, result, ...(module === undefined ? {} : { module }) }, io);
      printResult(result, { json: flags.json, program, write: io.stdout });
      return result.error === undefined && (result.replay?.diverged.length ?? 0) === 0 ? 0 : 1;
    } finally {
      await module?.dispose();
    }
  },
};

async function execute(
  flags: ReturnType<typeof parseRunFlags>,
  language: RunResult['language'],
  program: string,
  bindings: BindingNamespace[],
  deterministic: Cassette['deterministic'],
): Promise<RunResult> {
  const runtime = createRuntime();
  const controller = new AbortController();
  const onSignal = (signal: NodeJS.Signals): void => controller.abort(new Error(`interrupted by ${signal}`));
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const spec = runtime.resolve({
      language,
      program,
      bindings,
      timeoutMs: flags.timeoutMs,
      maxOutputBytes: flags.maxOutputBytes,
      memoryMb: flags.memoryMb,
      tmpMb: flags.tmpMb,
      sandbox: flags.sandbox,
      signal: controller.signal,
      ...(deterministic === undefined ? {} : { deterministic }),
    });
    return await runtime.run(spec);
  } catch (error) {
    if (error instanceof RuntimeMisuseError) throw new UsageError(error.message);
    throw error;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await runtime.dispose();
  }
}
