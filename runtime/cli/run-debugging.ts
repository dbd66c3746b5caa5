import fs from 'node:fs';
import readline from 'node:readline/promises';
import { errorMessage, loadCassette, type JsonValue, type SessionRunRequest } from '../index.js';
import { visibleText } from './terminal-text.js';
import { UsageError, type CliIo } from './usage-error.js';

type PauseRequest = NonNullable<SessionRunRequest['pauses']>;
type PauseDecider = NonNullable<PauseRequest['onPause']>;
type ForkSpec = NonNullable<PauseRequest['fork']>;
type Decision = Awaited<ReturnType<PauseDecider>>;

// The exit code of a run in which a call that needed approval was denied because nobody could be asked: its own, not
// 3 (an internal error of ptc), so a CI script can tell "pass --approve" from a bug.
export const APPROVAL_DENIED_EXIT = 4;

export interface Approver {
  onPause: PauseDecider;
  // the calls denied because there was no terminal to ask and no --approve
  deniedUnasked(): string[];
}

const MAX_SHOWN = 300;

// How `ptc run` answers calls that need approval: --approve allow|deny, else a person on the terminal; without a
// terminal (CI, a pipe) such calls are denied, and the run's exit code and a message say so. `--approve ask` without
// a terminal is misuse (exit 2) before anything runs.
export function approver(approve: 'allow' | 'deny' | 'ask' | undefined, io: CliIo): Approver {
  const terminal = process.stdin.isTTY === true && process.stderr.isTTY === true;
  if (approve === 'ask' && !terminal)
    throw new UsageError('--approve ask needs a terminal to ask on (stdin is not one): use --approve allow or deny');
  const denied: string[] = [];
  // one question at a time: calls in parallel wait their turn
  let turn: Promise<unknown> = Promise.resolve();
  const onPause: PauseDecider = (call) => {
    const label = `${call.global}.${call.name}`;
    if (call.reason !== 'approval') return Promise.resolve({ kind: 'continue' });
    if (approve === 'allow') return Promise.resolve({ kind: 'continue' });
    if (approve === 'deny') return Promise.resolve({ kind: 'throw', message: `${label} was denied (--approve deny)` });
    if (!terminal) {
      denied.push(label);
      io.stderr(
        `ptc run: ${label} needs approval and there is no terminal to ask: denied (pass --approve allow to allow it)\n`,
      );
      return Promise.resolve({
        kind: 'throw',
        message: `${label} was denied: it needs approval and nobody could be asked`,
      });
    }
    const asked = turn.then(() => askOnTerminal(call, io));
    turn = asked.catch(() => undefined);
    return asked;
  };
  return { onPause, deniedUnasked: () => [...denied] };
}

async function askOnTerminal(call: Parameters<PauseDecider>[0], io: CliIo): Promise<Decision> {
  const label = `${call.global}.${call.name}`;
  const args = visibleText(JSON.stringify(call.args));
  const shown = args.length > MAX_SHOWN ? `${args.slice(0, MAX_SHOWN)}…` : args;
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
  try {
    for (;;) {
      const reply = (
        await rl.question(
          `ptc run: call ${call.id} ${label}(${shown}) needs approval — [a]llow, [d]eny, [e]dit arguments? `,
        )
      )
        .trim()
        .toLowerCase();
      if (reply === 'a' || reply === 'allow') return { kind: 'continue' };
      if (reply === 'd' || reply === 'deny') return { kind: 'throw', message: `${label} was denied` };
      if (reply === 'e' || reply === 'edit') {
        const text = await rl.question('arguments as JSON: ');
        try {
          return { kind: 'continue', args: JSON.parse(text) as JsonValue };
        } catch (error) {
          io.stderr(`ptc run: not JSON (${errorMessage(error)}); asked again\n`);
        }
      }
    }
  } finally {
    rl.close();
  }
}

// `--fork N=<result.json>` or `N=throw:<message>` against the cassette: the fork, or a UsageError naming the problem.
export async function readFork(spec: string, cassettePath: string): Promise<ForkSpec> {
  const match = /^(\d+)=(.+)$/s.exec(spec);
  if (match === null) throw new UsageError(`--fork expects <n>=<result.json> or <n>=throw:<message>, got "${spec}"`);
  const at = Number(match[1]);
  const target = match[2] as string;
  const loaded = await loadCassette(cassettePath);
  if (!loaded.ok) throw new UsageError(loaded.message);
  const calls = loaded.cassette.calls;
  if (at < 1 || at > calls.length)
    throw new UsageError(
      calls.length === 0
        ? `--fork ${at}: the cassette ${cassettePath} has no calls`
        : `--fork ${at}: out of range, the cassette has calls 1 to ${calls.length}`,
    );
  if (target.startsWith('throw:')) return { calls, at, answer: { ok: false, message: target.slice('throw:'.length) } };
  let text: string;
  try {
    text = fs.readFileSync(target, 'utf8');
  } catch {
    throw new UsageError(`--fork ${at}: cannot read ${target}`);
  }
  try {
    return { calls, at, answer: { ok: true, value: JSON.parse(text) as JsonValue } };
  } catch (error) {
    throw new UsageError(`--fork ${at}: ${target} is not JSON (${errorMessage(error)})`);
  }
}
