import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { parentPid } from '../../helpers/processes.js';

// One System V IPC object of the host's IPC namespace, as /proc/sysvipc lists it.
export interface SysvObject {
  kind: 'shm' | 'msg' | 'sem';
  key: number;
  id: number;
  // the process that made it (shared memory only: /proc/sysvipc/shm's cpid)
  creator?: number;
}

const KINDS = ['shm', 'msg', 'sem'] as const;
const IPCRM_FLAG = { shm: '-m', msg: '-q', sem: '-s' } as const;

export const describeSysv = (o: SysvObject): string => `${o.kind} id ${o.id} key ${o.key}`;

// Keys the fixtures plant or hand to a program name the test process that made them: bit 30 set, the pid in bits
// 8-29 (pid_max is at most 2^22), a slot in bits 0-7 (blocks of 8, a program's own range). Two suites on one machine
// share the host's IPC namespace, so each one's leak check must tell its objects from the other's.
const OWNED = 0x4000_0000;
let nextSlot = crypto.randomInt(32) * 8;

export function ownedSysvKey(): number {
  const slot = nextSlot;
  nextSlot = (nextSlot + 8) % 256;
  return sysvKeyOf(process.pid, slot);
}

// The key of `slot` for the test process `pid`.
export const sysvKeyOf = (pid: number, slot: number): number => OWNED | ((pid & 0x3f_ffff) << 8) | (slot & 0xff);

// The test process a key was made by, if it was made by ownedSysvKey.
function keyOwner(key: number): number | undefined {
  return key > 0 && (key & OWNED) !== 0 ? (key >> 8) & 0x3f_ffff : undefined;
}

// A process's command line (NUL-separated), or undefined when it is gone.
export const cmdline = (pid: number): string | undefined => {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return undefined;
  }
};

// A live process that is, or descends from, a vitest process other than this one, without passing through this one.
function ofAnotherSuite(pid: number): boolean {
  for (let at: number | undefined = pid, hops = 0; at !== undefined && at > 1 && hops < 64; hops++) {
    if (at === process.pid) return false;
    if (cmdline(at)?.includes('vitest') === true) return true;
    at = parentPid(at);
  }
  return false;
}

// An object another live test process made (another suite running beside this one): not this process's to report or
// remove. Told by its key (ownedSysvKey) or, for a segment of no key (IPC_PRIVATE: a sandbox-off control's), by its
// creator still running under the other suite. Anything else new (a key of no test process, a dead owner's or
// creator's) stays a leak.
export function otherSuiteObject(o: SysvObject): boolean {
  const owner = keyOwner(o.key);
  if (owner !== undefined) return owner !== process.pid && cmdline(owner)?.includes('vitest') === true;
  return o.creator !== undefined && ofAnotherSuite(o.creator);
}

export function listSysv(): SysvObject[] {
  const out: SysvObject[] = [];
  for (const kind of KINDS) {
    let text: string;
    try {
      text = fs.readFileSync(`/proc/sysvipc/${kind}`, 'utf8');
    } catch {
      continue;
    }
    // first line is the header; every row starts with "key id"
    for (const line of text.split('\n').slice(1)) {
      const [key, id, , , cpid] = line.trim().split(/\s+/);
      if (key === undefined || id === undefined || key === '') continue;
      out.push({ kind, key: Number(key), id: Number(id), ...(kind === 'shm' ? { creator: Number(cpid) } : {}) });
    }
  }
  return out;
}

export function removeSysv(objects: readonly SysvObject[]): void {
  for (const o of objects) {
    try {
      execFileSync('ipcrm', [IPCRM_FLAG[o.kind], String(o.id)], { stdio: 'ignore' });
    } catch {
      // already removed
    }
  }
}
