import fs from 'node:fs';
import path from 'node:path';
import { createSession, type RunPlan } from '../../index.js';
import { bindingsLog } from '../bindings-log.js';
import { requireRunnableEnvironment } from '../environment.js';
import { printResult } from '../print-result.js';
import { languageFromFile, parseRunFlags, RUN_FLAGS, type RunFlags } from '../run-options.js';
import { SANDBOX_REFUSED_EXIT, sandboxNote, sandboxRefusal } from '../sandbox-note.js';
import { interruptible } from '../signals.js';
import { visibleText } from '../terminal-text.js';
import { UsageError, type CliCommand } from '../usage-error.js';
import { writeTrace } from './run-trace.js';

const USAGE = `ptc run <file> [--language typescript|python] [--bindings <module>] [--mode mock|live]
        [--record <cassette.json> | --replay <cassette.json>] [--deterministic] [--seed N] [--trace <trace.jsonl>]
        [--timeout-ms N] [--max-output-bytes N] [--memory-mb N] [--tmp-mb N] [--max-calls N] [--sandbox required|best-effort|off] [--json]`;

function planOf(flags: RunFlags): RunPlan {
  if (flags.replay !== undefined) return { mode: 'replay', cassettePath: path.resolve(flags.replay) };
  if (flags.record !== undefined)
    return { mode: 'record', handlers: flags.mode, cassettePath: path.resolve(flags.record) };
  return { mode: flags.mode };
}

// `ptc run`: one program, one fresh sandboxed process, one RunResult; the bindings run in this command's host.
export const runCommand: CliCommand = {
  name: 'run',
  summary: 'run a model program once and print its result',
  usage: USAGE,
  flags: RUN_FLAGS,
  exitCodes: ['1  the program failed (any error), a replay diverged, or a cassette was not written'],
  examples: [
    '# a TypeScript program with mock tools\nptc run examples/programs/cities.ts --bindings examples/programs/tools.bindings.mjs',
    '# record with live handlers, then replay it offline as JSON\nptc run examples/programs/cities.ts --bindings examples/programs/tools.bindings.mjs --mode live --record /tmp/cities.json --deterministic\nptc run examples/programs/cities.ts --bindings examples/programs/tools.bindings.mjs --replay /tmp/cities.json --deterministic --json',
  ],
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
    if (language === undefined)
      throw new UsageError(`cannot tell the language of ${flags.file}: use --language typescript|python`);
    const warn = (message: string): void => io.stderr(`ptc run: warning: ${visibleText(message)}\n`);
    const logs = bindingsLog(io, { maxBytes: flags.limits.maxOutputBytes });
    const session = createSession({
      ...(flags.bindings === undefined ? {} : { bindingsPath: path.resolve(flags.bindings) }),
      onBindingsLog: logs.forModule(flags.bindings),
    });
    const signals = interruptible();
    try {
      const outcome = await session.run({
        language,
        program,
        plan: planOf(flags),
        limits: {
          ...flags.limits,
        },
        deterministic: flags.deterministic,
        ...(flags.seed === undefined ? {} : { seed: flags.seed }),
        signal: signals.signal,
        onWarning: warn,
      });
      if (outcome.kind === 'setup-failed') {
        // interrupted before the program started (the bindings were still loading): not misuse
        if (signals.signal.aborted) {
          io.stderr(`ptc run: ${visibleText(outcome.message)}\n`);
          return 1;
        }
        // a broken bindings module, an unreadable cassette or a bad option is misuse of the command (exit 2)
        throw new UsageError(outcome.message);
      }
      const { result, cassette } = outcome;
      if (cassette !== undefined) {
        if (!cassette.ok)
          warn(
            cassette.message.startsWith('the run was cancelled')
              ? `the run was interrupted; ${flags.record} was not written`
              : cassette.message,
          );
        else io.stderr(`ptc run: recorded ${cassette.calls} call(s) to ${flags.record}\n`);
      }
      if (flags.trace !== undefined) {
        // the module as its host loaded it (descriptions and schemas for the trace), when there is one
        const loaded = await session.bindings?.ready();
        await writeTrace(
          flags.trace,
          { program, language, result, ...(loaded?.ok === true ? { module: loaded.module } : {}) },
          io,
        );
      }
      const refused = sandboxRefusal(flags.limits.sandbox, result);
      if (refused !== undefined) {
        // the JSON result still goes to a reader that asked for it; the terminal gets the one line
        if (flags.json) printResult(result, { json: true, program, write: io.stdout });
        io.stderr(`ptc run: ${refused}\n`);
        return SANDBOX_REFUSED_EXIT;
      }
      printResult(result, { json: flags.json, program, write: io.stdout });
      sandboxNote(io, 'run', flags.limits.sandbox)(result);
      return result.error === undefined &&
        (result.replay?.diverged.length ?? 0) === 0 &&
        (cassette === undefined || cassette.ok)
        ? 0
        : 1;
    } finally {
      signals.dispose();
      await session.dispose();
      logs.end();
    }
  },
};
