import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

export interface NodeExecutable {
  path: string;
  major: number;
  // the flag that turns the permission model on for this version, if it has one
  permissionFlag: '--permission' | '--experimental-permission' | undefined;
}

export type NodeLookup = { ok: true; node: NodeExecutable } | { ok: false; message: string };

// Resolves and probes the Node executable once; Electron hosts need ELECTRON_RUN_AS_NODE to act as Node.
export function probeNode(candidate: string): NodeLookup {
  try {
    fs.accessSync(candidate, fs.constants.X_OK);
  } catch {
    return { ok: false, message: `Node executable not found or not executable: ${candidate}` };
  }
  const probe = spawnSync(candidate, ['-p', 'process.versions.node'], {
    encoding: 'utf8',
    timeout: 10_000,
    env: { ELECTRON_RUN_AS_NODE: '1' },
  });
  const version = (probe.stdout ?? '').trim();
  const match = /^(\d+)\.(\d+)/.exec(version);
  if (probe.status !== 0 || match === null) {
    return { ok: false, message: `${candidate} did not answer as Node.js (${probe.error?.message ?? `exit ${String(probe.status)}`})` };
  }
  const major = Number(match[1]);
  if (major < 20) return { ok: false, message: `${candidate} is Node.js ${version}; PTC Playground needs Node.js 20 or newer` };
  const flag = major >= 22 ? '--permission' : '--experimental-permission';
  // some embedders (Electron builds) accept the version but not the flag: verify it really confines
  const check = spawnSync(candidate, ['--no-warnings', flag, '-e', 'process.exit(process.permission && !process.permission.has("fs.read", "/") ? 0 : 3)'], {
    stdio: 'ignore',
    timeout: 10_000,
    env: { ELECTRON_RUN_AS_NODE: '1' },
  });
  const permissionFlag = check.status === 0 ? flag : undefined;
  return { ok: true, node: { path: candidate, major, permissionFlag } };
}
