import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { KernelWitness } from './lib/kernel-witness.js';
import { HOST_PYTHON } from './lib/requirements.js';

// The host's kernel witness, on its own: it sees a real AF_PACKET socket and a real chmod (so a wasm engine's claim it
// clears is emulation, not a blind witness), and sees nothing when nothing is granted.
const root = process.getuid?.() === 0;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-kernel-witness-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

// A host Python that opens an AF_PACKET socket when told to, and holds it until its stdin closes.
async function packetHolder(): Promise<{ open(): Promise<void>; close(): Promise<void> }> {
  const child = spawn(
    HOST_PYTHON,
    [
      '-c',
      'import socket, sys\nsys.stdin.readline()\ns = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(3))\nprint("open", flush=True)\nsys.stdin.read()',
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // let it start, so the first look holds the process
  await new Promise((resolve) => setTimeout(resolve, 300));
  return {
    open: () =>
      new Promise((resolve) => {
        child.stdout?.once('data', () => resolve());
        child.stdin?.write('go\n');
      }),
    close: async () => {
      child.stdin?.end();
      await exited;
    },
  };
}

describe('the kernel witness', () => {
  test.runIf(root)(
    'sees an AF_PACKET socket a process of the tree opened after the first look',
    async () => {
      const holder = await packetHolder();
      try {
        const witness = new KernelWitness(undefined);
        witness.look();
        await holder.open();
        witness.look();
        const changes = witness.changes();
        expect(changes.some((c) => /gained socket inode \d+/.test(c))).toBe(true);
        expect(changes.some((c) => /AF_PACKET socket \(inode \d+\)/.test(c))).toBe(true);
      } finally {
        await holder.close();
      }
    },
    60_000,
  );

  test.runIf(root)('sees a mode-preserving chmod of a device node (its ctime moves)', async () => {
    const node = path.join(dir, 'null');
    execFileSync('mknod', ['-m', '600', node, 'c', '1', '3']);
    const witness = new KernelWitness(node);
    witness.look();
    // the kernel stamps ctime from a coarse clock: a chmod in the same tick as mknod would keep it
    await new Promise((resolve) => setTimeout(resolve, 50));
    fs.chmodSync(node, 0o600);
    witness.look();
    expect(witness.changes()).toEqual([expect.stringContaining(`host device node ${node} changed`)]);
  });

  test.runIf(root)(
    "does not count another process's mode-preserving chmod of a shared node (/dev/null) against the run",
    async () => {
      const witness = new KernelWitness(undefined);
      witness.look();
      const before = fs.statSync('/dev/null', { bigint: true });
      // past the kernel's coarse clock tick, so the chmod's ctime differs from any earlier one
      await new Promise((resolve) => setTimeout(resolve, 50));
      // what the sandbox proof does under the unshare-only sandbox, as root: the node keeps its mode, only its ctime
      // moves
      execFileSync('chmod', [(Number(before.mode) & 0o7777).toString(8), '/dev/null']);
      expect(fs.statSync('/dev/null', { bigint: true }).ctimeNs).not.toBe(before.ctimeNs);
      witness.look();
      expect(witness.changes()).toEqual([]);
    },
  );

  test('sees nothing when nothing was granted', async () => {
    const witness = new KernelWitness(undefined);
    witness.look();
    await new Promise((resolve) => setTimeout(resolve, 100));
    witness.look();
    expect(witness.looks).toBe(2);
    expect(witness.changes()).toEqual([]);
  });
});
