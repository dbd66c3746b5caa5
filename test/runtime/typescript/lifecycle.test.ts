import fs from 'node:fs';
import { describe, expect, test } from 'vitest';
import { createRuntime } from '../../../runtime/index.js';
import { pendingTeardowns } from '../../../runtime/engine/fresh-child.js';
import { runTs, toolsNamespace } from '../../helpers/runtime.js';

// a zombie (exited, not yet reaped by init) is not alive
const alive = (pid: number): boolean => {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
};

describe.concurrent('TypeScript backend: abort, dispose and cleanup', () => {
  test('abort mid-loop is abort with the reason as message', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort('stop'), 300);
    const r = await runTs('while (true) {}', { signal: controller.signal });
    expect(r.error).toEqual({ kind: 'abort', message: 'stop' });
  });

  test('a pre-aborted signal is abort without starting a process', async () => {
    const controller = new AbortController();
    controller.abort('already');
    const r = await runTs('return 1;', { signal: controller.signal });
    expect(r.error).toEqual({ kind: 'abort', message: 'already' });
    expect(r.durationMs).toBeLessThan(50);
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
    const pending = runtime.run(runtime.resolve({ language: 'typescript', program: 'while (true) {}' }));
    await new Promise((r) => setTimeout(r, 300));
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
    // the program saw a namespaced pid; find the real one through /proc is not possible, so check no `sleep 30` of ours survives
    await new Promise((res) => setTimeout(res, 200));
    const survivors = fs
      .readdirSync('/proc')
      .filter((p) => /^\d+$/.test(p))
      .filter((p) => {
        try {
          return fs.readFileSync(`/proc/${p}/cmdline`, 'utf8') === '/bin/sleep\u000030\u0000';
        } catch {
          return false;
        }
      });
    expect(survivors.filter((p) => alive(Number(p)))).toEqual([]);
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
    let victims: number[] = [];
    for (let i = 0; i < 100 && victims.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      victims = listDescendants(host.pid as number).filter((pid) => {
        try {
          return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('node-child.cjs');
        } catch {
          return false;
        }
      });
    }
    expect(victims.length).toBeGreaterThan(0);
    host.kill('SIGKILL');
    await new Promise((r) => setTimeout(r, 500));
    expect(victims.filter(alive)).toEqual([]);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
