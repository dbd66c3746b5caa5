import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

// One System V IPC object of the host's IPC namespace, as /proc/sysvipc lists it.
export interface SysvObject {
  kind: 'shm' | 'msg' | 'sem';
  key: number;
  id: number;
}

const KINDS = ['shm', 'msg', 'sem'] as const;
const IPCRM_FLAG = { shm: '-m', msg: '-q', sem: '-s' } as const;

export const describeSysv = (o: SysvObject): string => `${o.kind} id ${o.id} key ${o.key}`;

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
      const [key, id] = line.trim().split(/\s+/);
      if (key === undefined || id === undefined || key === '') continue;
      out.push({ kind, key: Number(key), id: Number(id) });
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
