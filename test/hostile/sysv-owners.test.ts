// Two suites on one machine share the host's IPC namespace: the leak check reports the SysV objects this test process
// made and any of no test process, never those another live suite planted (nor does its reap remove them).
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { plantSysv } from './lib/host-fixtures.js';
import { LeakChecker } from './lib/leaks.js';
import { cmdline, describeSysv, listSysv, removeSysv, sysvKeyOf, type SysvObject } from './lib/sysv.js';

const python = 'python3';
const planted: SysvObject[] = [];
const plant = async (shm: number, msg: number): Promise<SysvObject[]> => {
  const objects = await plantSysv(python, { shm, msg }, `PTC-TEST-${crypto.randomBytes(4).toString('hex')}`);
  planted.push(...objects);
  return objects;
};

afterAll(() => removeSysv(planted));

describe.skipIf(process.platform !== 'linux')('SysV objects of another suite', () => {
  test("another live suite's objects are not reported or reaped; this process's and anyone else's are", async () => {
    // a live vitest process that is not this one: the one that started this worker
    const other = [process.ppid].find((pid) => cmdline(pid)?.includes('vitest') === true);
    expect(other, 'the worker was started by a vitest process').toBeDefined();
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-sysv-owners-'));
    const checker = new LeakChecker(tmp, { sysv: true });
    try {
      const slot = crypto.randomInt(32) * 8;
      const theirs = await plant(sysvKeyOf(other as number, slot), sysvKeyOf(other as number, slot + 1));
      const mine = await plant(sysvKeyOf(process.pid, slot), sysvKeyOf(process.pid, slot + 1));
      // a key of no test process (a dead owner, or none at all) is a leak too
      const stranger = await plant(
        100_000_000 + crypto.randomInt(800_000_000),
        100_000_000 + crypto.randomInt(800_000_000),
      );
      const reported = new Set((await checker.check(100)).sysv);
      for (const o of [...mine, ...stranger]) expect(reported.has(describeSysv(o)), describeSysv(o)).toBe(true);
      for (const o of theirs) expect(reported.has(describeSysv(o)), describeSysv(o)).toBe(false);
      checker.reap();
      const left = new Set(listSysv().map(describeSysv));
      for (const o of theirs) expect(left.has(describeSysv(o)), `${describeSysv(o)} reaped`).toBe(true);
      for (const o of [...mine, ...stranger]) expect(left.has(describeSysv(o))).toBe(false);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });

  test('a keyless segment (IPC_PRIVATE) is not reported while its creator runs under another suite; once it is gone, it is', async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-sysv-owners-'));
    const checker = new LeakChecker(tmp, { sysv: true });
    // a stand-in for another suite's sandbox-off program: its command line names vitest, and it holds its segment
    const holder = spawn(
      python,
      [
        '-c',
        'import ctypes, sys\nsid = ctypes.CDLL(None).shmget(0, 4096, 0o600)\nprint(sid, flush=True)\nsys.stdin.read()',
        'vitest-neighbour',
      ],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    try {
      const id = await new Promise<number>((resolve, reject) => {
        holder.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
        holder.once('exit', () => reject(new Error('the holder ended before it made its segment')));
      });
      expect(id).toBeGreaterThanOrEqual(0);
      planted.push({ kind: 'shm', key: 0, id });
      const segment = describeSysv({ kind: 'shm', key: 0, id });
      expect((await checker.check(100)).sysv).not.toContain(segment);
      holder.stdin.end();
      await new Promise((resolve) => holder.once('exit', resolve));
      expect((await checker.check(100)).sysv).toContain(segment);
      checker.reap();
      expect(listSysv().map(describeSysv)).not.toContain(segment);
    } finally {
      holder.kill('SIGKILL');
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
