import { execFile } from 'node:child_process';
import fs from 'node:fs';

export interface NodeExecutable {
  path: string;
  major: number;
  // the flag that turns the permission model on for this version, if it has one
  permissionFlag: '--permission' | '--experimental-permission' | undefined;
}

export type NodeLookup = { ok: true; node: NodeExecutable } | { ok: false; message: string };

function run(
  file: string,
  args: string[],
): Promise<{ code: number | null; stdout: string; error: string | undefined }> {
  return new Promise((resolve) => {
    const child = execFile(
      file,
      args,
      { encoding: 'utf8', timeout: 10_000, killSignal: 'SIGKILL', env: { ELECTRON_RUN_AS_NODE: '1' } },
      (error, stdout) => {
        resolve({
          code: error === null ? 0 : typeof error.code === 'number' ? error.code : null,
          stdout,
          error: error?.message,
        });
      },
    );
    child.stdin?.end();
  });
}

// A real attempt under the flag: reading this very executable must be refused with ERR_ACCESS_DENIED.
const PERMISSION_ATTEMPT =
  "try { require('fs').readFileSync(process.execPath); process.exit(4) } catch (e) { process.exit(e.code === 'ERR_ACCESS_DENIED' ? 0 : 5) }";

// Resolves and probes the Node executable once (asynchronously: the extension host must never block on a child);
// Electron hosts need ELECTRON_RUN_AS_NODE to act as Node.
export async function probeNode(candidate: string): Promise<NodeLookup> {
  try {
    fs.accessSync(candidate, fs.constants.X_OK);
  } catch {
    return { ok: false, message: `Node executable not found or not executable: ${candidate}` };
  }
  const probe = await run(candidate, ['-p', 'process.versions.node']);
  const version = probe.stdout.trim();
  const match = /^(\d+)\.(\d+)/.exec(version);
  if (probe.code !== 0 || match === null) {
    return {
      ok: false,
      message: `${candidate} did not answer as Node.js (${probe.error ?? `exit ${String(probe.code)}`})`,
    };
  }
  const major = Number(match[1]);
  if (major < 20)
    return { ok: false, message: `${candidate} is Node.js ${version}; PTC Playground needs Node.js 20 or newer` };
  const flag = major >= 22 ? '--permission' : '--experimental-permission';
  // some embedders (Electron builds) accept the version but not the flag: verify it really confines
  const check = await run(candidate, ['--no-warnings', flag, '-e', PERMISSION_ATTEMPT]);
  const permissionFlag = check.code === 0 ? flag : undefined;
  return { ok: true, node: { path: candidate, major, permissionFlag } };
}
