import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { pendingTeardowns } from '../../../runtime/engine/fresh-child.js';
import { sandboxHost } from '../../../runtime/sandbox/probe.js';
import { eventually } from '../../helpers/eventually.js';
import { run, toolsNamespace } from '../../helpers/runtime.js';

// What a program makes the kernel hold is in no process's RSS: tmpfs inodes and dentries, negative dentries, socket
// buffers. Each run's cgroup charges it to the run; these tests read that from the host side (the run's cgroup and
// /proc/meminfo), never from the program's own view, and each has a control showing the memory is really held.
const host = await sandboxHost();
const cgroups = host.cgroups;
const bounded = process.platform === 'linux' && cgroups !== undefined && host.bwrap !== undefined;
if (!bounded)
  console.warn(`[kernel-memory] SKIPPING: no per-run cgroup here (${host.cgroupProblem ?? 'no bubblewrap'})`);

// The kernel memory a cgroup holds: v1 counts it apart (memory.kmem.usage_in_bytes), v2 in memory.stat.
function kernelBytes(dir: string): number {
  if (fs.existsSync(path.join(dir, 'memory.kmem.usage_in_bytes')))
    return Number(fs.readFileSync(path.join(dir, 'memory.kmem.usage_in_bytes'), 'utf8'));
  const stat = fs.readFileSync(path.join(dir, 'memory.stat'), 'utf8');
  return Number(/^kernel (\d+)/m.exec(stat)?.[1] ?? /^slab (\d+)/m.exec(stat)?.[1] ?? 0);
}

// The most kernel memory any run cgroup of this process holds now (spares hold little; the run under test, a lot).
function heaviestRunCgroup(): number {
  const parent = cgroups?.memoryParent ?? '';
  const mine = fs.readdirSync(parent).filter((entry) => entry.startsWith(`ptc-run-${process.pid}-`));
  return Math.max(0, ...mine.map((entry) => kernelBytes(path.join(parent, entry))));
}

function meminfo(field: string): number {
  return Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync('/proc/meminfo', 'utf8'))?.[1]) * 1024;
}

const MB = 1024 * 1024;

// Holds the run at a binding call while the host reads what the run's cgroup is charged.
function measuringTools(seen: { kernel: number }) {
  return toolsNamespace({
    hold: async () => {
      seen.kernel = heaviestRunCgroup();
      return seen.kernel;
    },
  });
}

describe.runIf(bounded)("kernel memory is charged to the run's cgroup", () => {
  test('empty files in the tmpfs and negative dentries: kernel memory the tmpfs size cap never counts', async () => {
    const seen = { kernel: 0 };
    const program = `
for i in range(100000):
    open(f"/tmp/f{i}", "w").close()
for i in range(200000):
    try:
        open(f"/tmp/missing-{i}")
    except FileNotFoundError:
        pass
return await tools.hold()`;
    const r = await run('python', program, {
      bindings: [measuringTools(seen)],
      tmpMb: 16,
      memoryMb: 256,
      timeoutMs: 120_000,
    });
    expect(r.error).toBeUndefined();
    // about 1 KB of inode and dentry per empty file, about 200 B per negative dentry
    expect(seen.kernel).toBeGreaterThan(60 * MB);
    expect(r.sandbox.mechanisms.some((m) => m.startsWith('a cgroup per run'))).toBe(true);
  });

  test('socket buffers queued through socketpairs are charged too', async () => {
    const seen = { kernel: 0 };
    const program = `
import socket
pairs = []
for _ in range(300):
    a, b = socket.socketpair()
    a.setblocking(False)
    try:
        while True:
            a.send(b"x" * 65536)
    except BlockingIOError:
        pass
    pairs.append((a, b))
return await tools.hold()`;
    const r = await run('python', program, { bindings: [measuringTools(seen)], memoryMb: 256, timeoutMs: 120_000 });
    expect(r.error).toBeUndefined();
    expect(seen.kernel).toBeGreaterThan(40 * MB);
  });

  // the run's own 120 s and the slab's 120 s, each a bound on a hang, not a measure
  test(
    "past its bound the kernel ends the run, the result says so, and the host's slab comes back",
    { timeout: 300_000 },
    async () => {
      const before = meminfo('Slab');
      const program = `
for i in range(2000000):
    open(f"/tmp/f{i}", "w").close()
return "made them all"`;
      const r = await run('python', program, { tmpMb: 16, memoryMb: 64, timeoutMs: 120_000 });
      expect(r.error?.kind).toBe('worker-exit');
      expect(r.error?.message).toMatch(
        /the run reached its memory bound \(\d+ MiB for the program, its temp files and what the kernel holds for it\)/,
      );
      // the files die with the sandbox's tmpfs once the run's teardown (after its result) removed its cgroup: what the
      // run made the kernel hold is gone then. Awaited, bounded: the host's slab is everyone's, and another suite
      // beside this one (its control below makes 200 000 files on the host) held 214 MB of it for a while in issue 33's
      // round 5; what this run kept, had it escaped its bound, would not come back
      await pendingTeardowns();
      let grown = 0;
      await eventually(
        "the host's slab back within 150 MB of before the run",
        () => (grown = meminfo('Slab') - before) < 150 * MB,
        { timeoutMs: 120_000 },
      ).catch((error: Error) => {
        throw new Error(`${error.message}: it is still ${Math.round(grown / MB)} MB above`, { cause: error });
      });
    },
  );

  test('control: without a cgroup (the sandbox off, files on the host tmpfs /dev/shm) the same files grow the host slab', async () => {
    const dir = fs.mkdtempSync(path.join(fs.existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir(), 'ptc-kmem-control-'));
    try {
      const before = meminfo('Slab');
      const program = `
import os
for i in range(200000):
    open(os.path.join(${JSON.stringify(dir)}, f"f{i}"), "w").close()
return len(os.listdir(${JSON.stringify(dir)}))`;
      const r = await run('python', program, { sandbox: 'off', timeoutMs: 120_000 });
      expect(r.value).toBe(200000);
      // the host's slab is shared with a suite running beside this one, which may free as much in the same window:
      // the files' share is read twice, as growth over the run and as the drop when they go (a second or so)
      const held = meminfo('Slab');
      fs.rmSync(dir, { recursive: true, force: true });
      const growth = held - before;
      const drop = held - meminfo('Slab');
      expect(Math.max(growth, drop), `growth ${growth} B, drop ${drop} B`).toBeGreaterThan(80 * MB);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
