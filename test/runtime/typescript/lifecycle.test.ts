import diagnostics_channel from 'node:diagnostics_channel';
import fs from 'node:fs';
import { describe, expect, test } from 'vitest';
import { createRuntime } from '../../../runtime/index.js';
import { pendingTeardowns } from '../../../runtime/engine/fresh-child.js';
import { RUN_PHASE_CHANNEL, type RunPhaseMark } from '../../../runtime/engine/phase-marks.js';
import { eventually, settleTo } from '../../helpers/eventually.js';
import { alive, processesRunning } from '../../helpers/processes.js';
import { runTs, toolsNamespace } from '../../helpers/runtime.js';

describe.concurrent('TypeScript backend: abort, dispose and cleanup', () => {
  test('abort mid-loop is abort with the reason as message', async () => {
    const controller = new AbortController();
    // aborted once the loop runs (the log is written right before it), not while the process starts
    const r = await runTs("console.log('looping');\nwhile (true) {}", {
      signal: controller.signal,
      onLog: () => controller.abort('stop'),
    });
    expect(r.error).toEqual({ kind: 'abort', message: 'stop' });
  });

  test('a pre-aborted signal is abort without starting a process', async () => {
    const controller = new AbortController();
    controller.abort('already');
    // the phases this run reached, told from the concurrent tests' runs by its program text
    const program = 'return 1; // pre-aborted';
    const phases: string[] = [];
    const listen = (message: unknown): void => {
      const mark = message as RunPhaseMark;
      if ((mark.run as { program?: unknown }).program === program) phases.push(mark.phase);
    };
    diagnostics_channel.subscribe(RUN_PHASE_CHANNEL, listen);
    try {
      const r = await runTs(program, { signal: controller.signal });
      expect(r.error).toEqual({ kind: 'abort', message: 'already' });
    } finally {
      diagnostics_channel.unsubscribe(RUN_PHASE_CHANNEL, listen);
    }
    // seen by the runtime, and no process was taken or started (not a wall-clock bound: a loaded machine stretches any
    // run, issue 33)
    expect(phases).toContain('start');
    expect(phases.filter((p) => p === 'taken' || p === 'handed-over' || p === 'refill-started')).toEqual([]);
  });

  test('abort after a binding call entered settles as abort and the handler sees its signal abort', async () => {
    const controller = new AbortController();
    let handlerAborted = false;
    const ns = toolsNamespace({
      wait: (_args: never, ctx?: { signal: AbortSignal }) =>
        new Promise((resolve) => {
          ctx?.signal.addEventListener('abort', () => {
            handlerAborted = true;
            resolve(null);
          });
          setTimeout(() => controller.abort('stop'), 100);
        }),
    } as never);
    const r = await runTs('await tools.wait({});', { signal: controller.signal, bindings: [ns] });
    expect(r.error).toEqual({ kind: 'abort', message: 'stop' });
    expect(handlerAborted).toBe(true);
  });

  test('dispose aborts in-flight runs, awaits them, and later calls reject', async () => {
    const runtime = createRuntime();
    let running = false;
    const pending = runtime.run(
      runtime.resolve({
        language: 'typescript',
        program: "console.log('looping');\nwhile (true) {}",
        onLog: () => (running = true),
      }),
    );
    // disposed while the program runs, not while its process starts
    await eventually('the program to start its loop', () => running);
    await runtime.dispose();
    const r = await pending;
    expect(r.error?.kind).toBe('abort');
    expect(() => runtime.resolve({ language: 'typescript', program: '1' })).toThrow(TypeError);
  });

  test('unconfined, the private temp dir exists during the run and is removed afterwards', async () => {
    const r = await runTs(
      "const os = await import('node:os');\nconst fs = await import('node:fs');\nfs.writeFileSync(os.tmpdir() + '/note.txt', 'hi');\nreturn os.tmpdir();",
      { sandbox: 'off' },
    );
    expect(typeof r.value).toBe('string');
    expect(r.value).toMatch(/ptc-run-/);
    // a child slow to die is torn down after its result returns (engine/fresh-child.ts); dispose() waits for that
    await pendingTeardowns();
    expect(fs.existsSync(r.value as string)).toBe(false);
  });

  test('with child processes allowed, a detached grandchild does not outlive the run', async () => {
    const r = await runTs(
      "const cp = await import('node:child_process');\nconst c = cp.spawn('/bin/sleep', ['30'], { detached: true, stdio: 'ignore' });\nc.unref();\nreturn c.pid;",
      { sandbox: 'off' },
    );
    expect(typeof r.value).toBe('number');
    // the program saw a namespaced pid; find the real one through /proc is not possible, so check no `sleep 30` of ours
    // survives the result does not wait for the tree to be reaped (engine/fresh-child.ts)
    expect(
      await settleTo(() => processesRunning(['/bin/sleep', '30'])),
      'the detached `sleep 30` still running',
    ).toEqual([]);
  });
});

describe('TypeScript backend: host death', () => {
  test('when the host is killed mid hot-loop, the program process dies with it', async () => {
    const { spawn } = await import('node:child_process');
    const { listDescendants } = await import('../../../runtime/process/launch.js');
    const dir = fs.mkdtempSync('/tmp/ptc-hostdeath-');
    const file = `${dir}/spin.ts`;
    fs.writeFileSync(file, 'while (true) {}');
    const host = spawn(process.execPath, ['dist/cli.mjs', 'run', file], { stdio: 'ignore' });
    const victims = await eventually('the program process under the ptc host', () => {
      const found = listDescendants(host.pid as number).filter((pid) => {
        try {
          return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('node-child.cjs');
        } catch {
          return false;
        }
      });
      return found.length > 0 && found;
    });
    host.kill('SIGKILL');
    expect(
      await settleTo(() => victims.filter(alive)),
      'the program processes of the killed host still running',
    ).toEqual([]);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
