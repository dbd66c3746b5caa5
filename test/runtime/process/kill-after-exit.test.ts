// Killing a child's tree after the child was reaped must never reach a process that got its pid since: on a host with
// pid_max 32 768 and a busy test suite, a late kill of the old pid (a run's discard after its exit) once ended a
// stranger. The kernel is made to hand the exact pid out again (ns_last_pid, root only), so the reuse is certain.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { describe, expect, onTestFinished, test } from 'vitest';
import { launchChild } from '../../../runtime/process/launch.js';
import { eventually } from '../../helpers/eventually.js';
import { alive } from '../../helpers/processes.js';

const NS_LAST_PID = '/proc/sys/kernel/ns_last_pid';
const canSteer = process.platform === 'linux' && process.getuid?.() === 0 && fs.existsSync(NS_LAST_PID);

// A detached `sleep` (a group leader, as another run's child would be) started at exactly `pid`, or undefined when
// another fork on the machine took that pid first.
function startAt(pid: number): { pid: number; stop: () => void } | undefined {
  fs.writeFileSync(NS_LAST_PID, String(pid - 1));
  const stranger = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
  const stop = (): void => void stranger.kill('SIGKILL');
  if (stranger.pid === pid) return { pid, stop };
  stop();
  return undefined;
}

describe.runIf(canSteer)('killing a tree after its child exited', () => {
  test('never signals the process, or the group, that reused the pid', async () => {
    let stranger: { pid: number; stop: () => void } | undefined;
    let child: ReturnType<typeof launchChild> | undefined;
    for (let attempt = 0; attempt < 20 && stranger === undefined; attempt++) {
      child = launchChild({ argv: ['true'], cwd: os.tmpdir(), env: { PATH: process.env.PATH ?? '' }, extraPipes: 0 });
      await child.closed;
      stranger = startAt(child.pid as number);
    }
    expect(stranger, 'the kernel never handed the pid out again').toBeDefined();
    if (stranger === undefined || child === undefined) return;
    onTestFinished(stranger.stop);
    child.killTree();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(alive(stranger.pid)).toBe(true);
  });

  test('still ends what the child left in its group', async () => {
    // the member holds none of the child's pipes, so the child counts as exited while its group lives on
    const child = launchChild({
      argv: ['sh', '-c', 'sleep 30 </dev/null >/dev/null 2>&1 & echo $!'],
      cwd: os.tmpdir(),
      env: { PATH: process.env.PATH ?? '' },
      extraPipes: 0,
    });
    let printed = '';
    child.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    await child.closed;
    const left = Number(printed);
    expect(left).toBeGreaterThan(0);
    onTestFinished(() => void (alive(left) && process.kill(left, 'SIGKILL')));
    expect(alive(left)).toBe(true);
    child.killTree();
    await eventually('the group member to end', () => !alive(left));
  });
});
