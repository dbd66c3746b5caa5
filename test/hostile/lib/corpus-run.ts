import fs from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { Runtime } from '../../../runtime/api.js';
import { encodeLossless } from '../../../runtime/json/lossless.js';
import {
  callCount,
  RunResultSchema,
  type RunResult,
  type SandboxReport,
} from '../../../runtime/protocol/run-result.js';
import { settleTo } from '../../helpers/eventually.js';
import { defaultOptions, type CorpusEntry, type Effect } from './corpus-format.js';
import { RunFixtures, type Secrets } from './fixtures.js';
import { intrinsicsFingerprint, recordingTools } from './host-guard.js';
import { processesMarkedBy, sleep } from './leaks.js';

export interface Verdict {
  entry: CorpusEntry;
  outcome: string;
  // every way the run differed from its header
  problems: string[];
  // the ones that mean the program was not contained (an effect it must not cause, a survivor, a late handler call, a
  // contract or host breach); the rest are expectations (outcome, value, message, logs, calls)
  breaches: string[];
  result: RunResult | undefined;
  effects: Effect[];
  // kernel-granted self-reports from a wasm engine that the host's own witness showed were emulation
  emulated: string[];
  ms: number;
}

export interface CorpusContext {
  runtime: Runtime;
  secrets: Secrets;
  // a directory outside every run's temp dir; each run gets its own subdirectory as cwd
  outsideRoot: string;
  // the suite's private TMPDIR (where run temp dirs land on the host disk)
  tmpRoot: string;
  // interpreter for the host-side fixture helper
  python: string;
}

// Effects a forbidden program could still cause after it settled (a grandchild's late write, data a cleanup failed to
// remove); a control's effects happen while it runs, so only must-not effects wait.
const LATE_EFFECTS: readonly Effect[] = ['file-created', 'file-changed', 'data-on-host-disk'];

// JSON.stringify recurses: a 10 000-deep value needs the runtime's iterative encoder
function serialize(result: RunResult): string {
  try {
    return JSON.stringify(result);
  } catch {
    const encoded = encodeLossless(result);
    return encoded.ok
      ? encoded.text
      : JSON.stringify({ logs: result.logs, error: result.error, calls: result.calls.length });
  }
}

const clip = (text: string, n = 300): string => (text.length > n ? `${text.slice(0, n)}…` : text);

// Runs one corpus program for real and lists every way it differed from its header.
export async function runEntry(ctx: CorpusContext, entry: CorpusEntry): Promise<Verdict> {
  const started = performance.now();
  const problems: string[] = [];
  const breaches: string[] = [];
  const breach = (problem: string): void => {
    problems.push(problem);
    breaches.push(problem);
  };
  const outsideDir = path.join(ctx.outsideRoot, entry.name.replace(/[^\w.-]/g, '_'));
  fs.mkdirSync(outsideDir, { recursive: true });
  const fixtures = new RunFixtures({ outsideDir, secrets: ctx.secrets, tmpRoot: ctx.tmpRoot, python: ctx.python });
  try {
    await fixtures.start(entry.source);
  } catch (error) {
    await fixtures.close();
    const problem = `a host fixture could not be set up: ${String(error)}`;
    return {
      entry,
      outcome: 'fixture-failed',
      problems: [problem],
      breaches: [problem],
      result: undefined,
      effects: [],
      emulated: [],
      ms: 0,
    };
  }
  const probe = fixtures.probeNamespace(entry.source);
  const tools = recordingTools();
  const fingerprint = intrinsicsFingerprint();
  let result: RunResult | undefined;
  let settledAt = 0;
  try {
    const spec = ctx.runtime.resolve({
      language: entry.language,
      program: fixtures.render(entry.source),
      bindings: probe === undefined ? [tools.namespace] : [tools.namespace, probe],
      cwd: outsideDir,
      ...defaultOptions(entry),
      ...entry.options,
    });
    result = await ctx.runtime.run(spec);
    settledAt = performance.now();
  } catch (error) {
    breach(`run() rejected: ${String(error)}`);
  }
  // every process of this run (its cwd is the run's own outside dir) is gone
  const survivors = await settleTo(() => processesMarkedBy(outsideDir), 3_000);
  if (survivors.length > 0)
    breach(`processes outlived the run: ${survivors.map((p) => `${p.pid} ${clip(p.cmdline, 80)}`).join('; ')}`);
  // late side effects (a datagram in flight, a grandchild's delayed write, a timer's handler call) get time to show up:
  // an effect that must not happen can only be watched for a fixed window
  await sleep(entry.mustNot.some((e) => LATE_EFFECTS.includes(e)) ? 1_200 : 150);
  const resultText = result === undefined ? '' : serialize(result);
  // a control's effect that must happen is awaited: on a loaded machine it may land after the window
  if (entry.must.length > 0)
    await settleTo(() => entry.must.filter((e) => !fixtures.effects(resultText).has(e)), 10_000);
  const effects = fixtures.effects(resultText);
  const witness = fixtures.kernelWitness();
  const detail = effects.has('victim-touched') ? ` [${fixtures.victimTouches().join('; ')}]` : '';
  await fixtures.close();
  const outcome = result === undefined ? 'rejected' : (result.error?.kind ?? 'success');
  if (result !== undefined) {
    const shape = RunResultSchema.safeParse(result);
    if (!shape.success) breach(`result violates the contract schema: ${shape.error.issues[0]?.message}`);
    if (!(entry.expect as string[]).includes(outcome)) {
      problems.push(
        `expected ${entry.expect.join('|')}, got ${outcome}${result.error ? `: ${clip(result.error.message)}` : ''}`,
      );
    }
    if (entry.value !== undefined && outcome === 'success' && !isDeepStrictEqual(result.value, entry.value.json)) {
      problems.push(
        `expected value ${clip(JSON.stringify(entry.value.json))}, got ${clip(JSON.stringify(result.value) ?? 'undefined')}`,
      );
    }
    // a program with its own control: its value is the verdict of the control and of every attack, so any other value
    // (or none) is a way out or a blind probe, on every engine
    if (entry.control !== undefined && (outcome !== 'success' || !isDeepStrictEqual(result.value, entry.value?.json)))
      breach(
        `its own control or attacks came out differently (control: ${entry.control}): ${clip(JSON.stringify(result.value ?? result.error) ?? 'undefined', 600)}`,
      );
    if (entry.message !== undefined && !entry.message.test(result.error?.message ?? '')) {
      problems.push(
        `error message ${JSON.stringify(clip(result.error?.message ?? '(none)'))} does not match ${entry.message}`,
      );
    }
    if (entry.logs !== undefined && !result.logs.some((l) => entry.logs?.test(l))) {
      problems.push(`no log entry matches ${entry.logs}; logs: ${clip(JSON.stringify(result.logs.slice(0, 5)))}`);
    }
    // counted over the whole run (a result keeps only the first calls one by one)
    if (entry.calls !== undefined && callCount(result) !== entry.calls)
      problems.push(`expected ${entry.calls} calls, got ${callCount(result)}`);
  }
  if (effects.has('env-leaked')) breach("the host's environment reached the program");
  const emulated: string[] = [];
  for (const effect of entry.mustNot) {
    if (!effects.has(effect)) continue;
    // a WebAssembly engine answers syscalls from Emscripten's emulation: its self-report is judged by the host's
    // witness
    if (effect === 'kernel-granted' && result?.sandbox.isolation === 'wasm') {
      const seen = judgeWasmGrant(result.sandbox.engine ?? 'wasm', witness);
      if (seen.breach === undefined) emulated.push(seen.note);
      else breach(seen.breach);
      continue;
    }
    // an effect the report admits (e.g. filesystem "allowed" with partial enforcement) is honest; a claimed denial must
    // hold
    const denied = result === undefined || claimsDenial(result.sandbox, effect);
    if (denied)
      breach(
        `must not happen, but did: ${effect}${effect === 'victim-touched' ? detail : ''} (sandbox report: ${JSON.stringify(result?.sandbox)})`,
      );
    else if (result?.sandbox.enforcement === 'full') breach(`${effect} happened under enforcement "full"`);
  }
  for (const effect of entry.must) if (!effects.has(effect)) problems.push(`control effect did not happen: ${effect}`);
  // a control that asked the host to look proves the witness sees a granted operation
  if (entry.must.length > 0 && witness !== undefined && witness.changes.length === 0)
    problems.push(
      `the host's kernel witness saw nothing of the granted operation (${witness.looks} looks): it is blind`,
    );
  const late = tools.invocations.filter((i) => settledAt > 0 && i.at > settledAt);
  if (late.length > 0) breach(`binding handlers ran after the run settled: ${late.map((i) => i.name).join(', ')}`);
  if (intrinsicsFingerprint() !== fingerprint) breach('host intrinsics changed during the run');
  return {
    entry,
    outcome,
    problems,
    breaches,
    result,
    effects: [...effects],
    emulated,
    ms: Math.round(performance.now() - started),
  };
}

// A wasm engine's kernel-granted self-report is contained only when the host looked (before the attempt and while the
// program held what it claims) and saw nothing granted: no socket gained, no packet socket, no device node changed.
export function judgeWasmGrant(
  engine: string,
  witness: { looks: number; changes: string[] } | undefined,
): { breach: string; note?: undefined } | { breach?: undefined; note: string } {
  if (witness === undefined || witness.looks < 2)
    return {
      breach: `kernel-granted self-report on the ${engine} engine without a host witness (the program must call probe.kernelLook() before the attempt and while it holds what it claims; ${witness?.looks ?? 0} looks)`,
    };
  if (witness.changes.length > 0)
    return { breach: `kernel-granted on the ${engine} engine, and the host saw it: ${witness.changes.join('; ')}` };
  return { note: `${engine}: claimed, host witness unchanged over ${witness.looks} looks (emulated)` };
}

// Whether the run's own sandbox report claims the layer that forbids `effect`.
export function claimsDenial(sandbox: SandboxReport, effect: Effect): boolean {
  switch (effect) {
    case 'file-created':
    case 'file-changed':
    case 'device-changed':
    case 'core-dumped':
    case 'trace-written':
    case 'data-on-host-disk':
      return sandbox.filesystem !== 'allowed';
    // the OS confinement as a whole (namespaces, capabilities, seccomp) forbids these: any confinement claim covers
    // them
    case 'victim-touched':
    case 'ipc-left':
    case 'tty-injected':
    case 'kernel-granted':
      return sandbox.enforcement !== 'none';
    case 'secret-leaked':
      return sandbox.filesystem === 'denied';
    case 'tcp-received':
    case 'udp-received':
    case 'unix-received':
      return sandbox.network === 'denied';
    case 'env-leaked':
      return true;
  }
}

// Runs `items` with at most `limit` in flight.
export async function pool<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      out[index] = await work(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
