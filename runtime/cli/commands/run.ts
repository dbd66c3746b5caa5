import fs from 'node:fs';
import path from 'node:path';
import { createSession, type RunPlan, writeRunCassette } from '../../index.js';
import { bindingsLog } from '../bindings-log.js';
import { printResult } from '../report.js';
import { languageFromFile, parseRunFlags, RUN_FLAGS, type RunFlags } from '../run-options.js';
import { SANDBOX_REFUSED_EXIT, sandboxNote, sandboxRefusal } from '../sandbox-note.js';
import { interruptible } from '../signals.js';
import { visibleText } from '../terminal-text.js';
import { requireRunnableEnvironment } from '../environment.js';
import { UsageError, type CliCommand } from '../usage-error.js';
import { writeTrace } from './run-trace.js';
import { APPROVAL_DENIED_EXIT, approver, readFork } from '../run-debugging.js';

const USAGE = `ptc run <file> [--language typescript|python] [--bindings <module>] [--mode mock|live]
        [--record <cassette.json> | --replay <cassette.json> [--fork <n>=<result.json> [--record <fork.json>]]]
        [--approve allow|deny|ask] [--deterministic] [--seed N] [--trace <trace.jsonl>]
        [--timeout-ms N] [--max-output-bytes N] [--memory-mb N] [--tmp-mb N] [--max-calls N] [--sandbox required|best-effort|off] [--json]`;

function planOf(flags: RunFlags): RunPlan {
  // a fork with --mode: the calls after the fork go to that mode's handlers (calls up to it come from the cassette)
  if (flags.replay !== undefined && !(flags.fork !== undefined && flags.modeGiven))
    return { mode: 'replay', cassettePath: path.resolve(flags.replay) };
  if (flags.fork !== undefined) return { mode: flags.mode };
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
  exitCodes: [
    '1  the program failed (any error), a replay diverged, or a cassette was not written',
    `${APPROVAL_DENIED_EXIT}  a call that needs approval was denied because there was no terminal to ask (see --approve)`,
  ],
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
    const approvals = approver(flags.approve, io);
    const fork =
      flags.fork === undefined ? undefined : await readFork(flags.fork, path.resolve(flags.replay as string));
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
        pauses: { onPause: approvals.onPause, ...(fork === undefined ? {} : { fork }) },
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
      const { result } = outcome;
      // a fork saved with --record is the new run's recording
      const cassette =
        fork !== undefined && flags.record !== undefined
          ? await writeRunCassette(path.resolve(flags.record), result)
          : outcome.cassette;
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
      const denied = approvals.deniedUnasked();
      if (denied.length > 0)
        io.stderr(
          `ptc run: ${denied.length} call(s) needing approval were denied (no terminal to ask): exit ${APPROVAL_DENIED_EXIT}\n`,
        );
      if (result.error !== undefined || (result.replay?.diverged.length ?? 0) > 0) return 1;
      if (cassette !== undefined && !cassette.ok) return 1;
      return denied.length > 0 ? APPROVAL_DENIED_EXIT : 0;
    } finally {
      signals.dispose();
      await session.dispose();
      logs.end();
    }
  },
};
