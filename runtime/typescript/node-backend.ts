import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { CodeRunSpec } from '../api.js';
import { encodeFrame, FrameDecoder } from '../channel/frame-codec.js';
import { LIMITS } from '../contract/limits.js';
import { RunSession } from '../engine/run-session.js';
import { decodeLossless, encodeChecked, checkLossless } from '../json/lossless.js';
import { captureLines } from '../output/pipe-lines.js';
import { decodeShimExit, launchChild, type ExitInfo } from '../process/launch.js';
import type { JsonValue } from '../protocol/json-value.js';
import { ChildFrameSchema, type BootFrame } from '../protocol/node-wire.js';
import type { RunResult } from '../protocol/run-result.js';
import type { SandboxCapabilities } from '../sandbox/probe.js';
import { planSandbox } from '../sandbox/plan.js';
import { abortMessage, failedBeforeSpawn } from '../engine/early-results.js';
import type { NodeExecutable } from './node-executable.js';
import { stripProgram } from './strip.js';

export interface NodeBackendDeps {
  node: NodeExecutable;
  bootstrapPath: string;
  caps: SandboxCapabilities;
}

const SHIM = ['/bin/sh', '-c', '"$@"; exit $?', 'ptc-init'];
const PERMISSION_MECHANISM = 'node-permission-model';

// Runs one TypeScript program in a fresh Node process and settles it into a RunResult.
export async function runNodeProgram(spec: CodeRunSpec, deps: NodeBackendDeps): Promise<RunResult> {
  const layer = deps.node.permissionFlag === undefined ? undefined : { mechanism: PERMISSION_MECHANISM };
  const plan = planSandbox(spec.sandbox, deps.caps, { filesystem: layer, childProcess: layer });
  if (spec.signal?.aborted) return failedBeforeSpawn(spec, plan.report, { kind: 'abort', message: abortMessage(spec.signal) });
  if (!plan.ok) return failedBeforeSpawn(spec, plan.report, { kind: 'sandbox-unavailable', message: plan.message });
  const stripped = await stripProgram(spec.program);
  if (!stripped.ok) {
    const failure = stripped.location === undefined ? { kind: 'exception' as const, message: stripped.message } : { kind: 'exception' as const, message: stripped.message, location: stripped.location };
    return failedBeforeSpawn(spec, plan.report, failure);
  }
  if (spec.signal?.aborted) return failedBeforeSpawn(spec, plan.report, { kind: 'abort', message: abortMessage(spec.signal) });

  const session = new RunSession(spec, plan.report);
  let tmpdir: string;
  try {
    tmpdir = await fs.mkdtemp(path.join(os.tmpdir(), 'ptc-run-'));
  } catch (error) {
    session.fail({ kind: 'worker-exit', message: `could not create the run's private temp dir: ${(error as Error).message}` });
    return session.result();
  }
  try {
    return await superviseChild(spec, deps, session, plan.useBackendLayers, plan.wrapper, tmpdir, stripped.code);
  } finally {
    await fs.rm(tmpdir, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined);
  }
}

function nodeArgv(deps: NodeBackendDeps, spec: CodeRunSpec, confine: boolean, tmpdir: string): string[] {
  const flags = ['--no-warnings', `--max-old-space-size=${spec.memoryMb}`];
  if (confine && deps.node.permissionFlag !== undefined) {
    // the bootstrap file and the private temp dir are all the program can touch
    flags.push(deps.node.permissionFlag, `--allow-fs-read=${deps.bootstrapPath}`, `--allow-fs-read=${tmpdir}/`, `--allow-fs-write=${tmpdir}/`);
  }
  return [deps.node.path, ...flags, deps.bootstrapPath];
}

async function superviseChild(
  spec: CodeRunSpec,
  deps: NodeBackendDeps,
  session: RunSession,
  confine: boolean,
  wrapper: string[],
  tmpdir: string,
  code: string,
): Promise<RunResult> {
  const viaShim = wrapper.length > 0;
  const argv = [...wrapper, ...(viaShim ? SHIM : []), ...nodeArgv(deps, spec, confine, tmpdir)];
  const child = launchChild({ argv, cwd: spec.cwd, env: { ELECTRON_RUN_AS_NODE: '1' }, extraPipes: 2 });
  const [fromChild, toChild] = child.pipes as unknown as [NodeJS.ReadableStream, NodeJS.WritableStream];
  const send = (text: string): void => {
    if (session.outcome === undefined) toChild.write(encodeFrame(text));
  };
  const dispatcher = session.createDispatcher({
    firstId: 1,
    sendReply: (id, reply) =>
      send(reply.ok ? `{"type":"reply","id":${id},"ok":true,"value":${reply.valueText}}` : JSON.stringify({ type: 'reply', id, ok: false, message: reply.message })),
  });
  let ready = false;
  const decoder = new FrameDecoder(LIMITS.maxFrameBytes);
  const protocol = (message: string): void => session.fail({ kind: 'protocol', message });
  const onFrame = (text: string): void => {
    if (session.outcome !== undefined) return;
    const decoded = decodeLossless(text);
    if (!decoded.ok) return protocol(`control frame is not lossless JSON (${decoded.reason})`);
    const parsed = ChildFrameSchema.safeParse(decoded.value);
    if (!parsed.success) return protocol(`malformed control frame: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    const frame = parsed.data;
    if (frame.type === 'ready') {
      if (ready) return protocol('second ready frame');
      ready = true;
      const boot: BootFrame = {
        type: 'boot',
        code,
        namespaces: spec.bindings.map((ns) => ({ global: ns.global, names: Object.keys(ns.functions), ...(ns.errorClass ? { errorClass: ns.errorClass } : {}) })),
        maxOutputBytes: spec.maxOutputBytes,
        maxPendingCalls: spec.maxPendingCalls,
        tmpdir,
        ...(spec.deterministic === undefined ? {} : { deterministic: spec.deterministic }),
      };
      send(JSON.stringify(boot));
      return;
    }
    if (!ready) return protocol(`${frame.type} frame before ready`);
    if (frame.type === 'log') {
      session.log(frame.stream, frame.text);
    } else if (frame.type === 'call') {
      const verdict = dispatcher.dispatch(frame.id, frame.global, frame.name, frame.args as JsonValue);
      if (!verdict.ok) protocol(verdict.message);
    } else if (frame.error !== undefined) {
      const { kind, message, location } = frame.error;
      session.fail(location === undefined ? { kind, message } : { kind, message, location });
    } else if ('value' in frame && frame.value !== undefined) {
      const check = checkLossless(frame.value);
      if (!check.ok) return session.fail({ kind: 'invalid-output', message: `program completion must be lossless JSON: ${check.reason}` });
      const valueBytes = Buffer.byteLength(encodeChecked(frame.value as JsonValue, check.depth));
      session.settle({ kind: 'completed', value: frame.value as JsonValue, valueBytes });
    } else {
      session.settle({ kind: 'completed', valueBytes: 0 });
    }
  };
  fromChild.on('data', (chunk: Buffer) =>
    decoder.push(chunk, (event) => (event.kind === 'frame' ? onFrame(event.text) : protocol(event.message))),
  );
  const budget = (): number => session.ledger.maxBytes - session.ledger.used;
  const flushStdout = captureLines(child.stdout, budget, (line) => session.log('stdout', line));
  const flushStderr = captureLines(child.stderr, budget, (line) => session.log('stderr', line));

  const deadline = setTimeout(() => session.fail({ kind: 'timeout', message: `execution deadline reached (${spec.timeoutMs}ms)` }), spec.timeoutMs);
  const onAbort = (): void => session.fail({ kind: 'abort', message: abortMessage(spec.signal) });
  spec.signal?.addEventListener('abort', onAbort, { once: true });
  // an abort during staging fired before the listener existed
  if (spec.signal?.aborted) onAbort();
  void child.spawnError.then((error) => session.fail({ kind: 'worker-exit', message: `could not start Node: ${error.message}` }));

  let exit: ExitInfo | undefined;
  const closed = child.closed.then((info) => {
    exit = decodeShimExit(info, viaShim);
  });
  await Promise.race([session.settled, closed]);
  clearTimeout(deadline);
  spec.signal?.removeEventListener('abort', onAbort);
  if (session.outcome !== undefined) {
    child.killTree();
    await Promise.race([closed, delay(LIMITS.graceMs)]);
  } else {
    // exited on its own without `done`; pipes are closed, so every byte of output is already in
    child.killTree();
  }
  flushStdout();
  flushStderr();
  if (session.outcome === undefined) {
    const how = exit?.signal ? `signal ${exit.signal}` : `code ${String(exit?.code)}`;
    const oom = session.ledger.entries.some((e) => e.stream === 'stderr' && /heap out of memory|Reached heap limit/.test(e.text));
    session.fail({ kind: 'worker-exit', message: `Node process exited before completing (${how})${oom ? ': JavaScript heap out of memory' : ''}` });
  }
  await dispatcher.drain(50);
  return session.result();
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
