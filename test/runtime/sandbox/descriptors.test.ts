import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { HOST_PYTHON } from '../../hostile/lib/requirements.js';

// Descriptors the caller of `ptc` leaks (no close-on-exec) must not reach the program, the bindings host or an MCP
// server: a careless host (fixtures/leaky-host.py) leaves a directory, a file, a socket and a pipe open at 20, 251,
// 1500 and 1501 (past the 1 024 a run may open), then starts the real CLI as its child. The control in every case:
// the CLI's own process holds all four, so the leak is real up to the boundary.
const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../../..');
const cli = path.join(repo, 'dist', 'cli.mjs');
const LEAKED = [20, 251, 1500, 1501];

interface HostReport {
  held: number[];
  targets: Record<string, string>;
  code: number;
  stdout: string;
  stderr: string;
  secret: string;
  piped: string;
  sent: string;
}

let dir: string;
let secretFile: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-leak-'));
  secretFile = path.join(dir, 'secret.txt');
  fs.writeFileSync(secretFile, 'host secret\n');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function leakyRun(args: string[]): {
  report: HostReport;
  result: {
    value?: unknown;
    error?: { kind: string; message: string };
    sandbox: { enforcement: string; mechanisms: string[] };
  };
} {
  const stdout = execFileSync(
    HOST_PYTHON,
    [
      path.join(here, 'fixtures', 'leaky-host.py'),
      secretFile,
      JSON.stringify([process.execPath, cli, 'run', '--json', ...args]),
    ],
    {
      encoding: 'utf8',
      timeout: 240_000,
      maxBuffer: 64 << 20,
    },
  );
  const report = JSON.parse(stdout) as HostReport;
  // the control: the CLI process itself holds every leaked descriptor, so the attack reaches the boundary
  expect(report.held, report.stderr).toEqual(LEAKED);
  expect(report.secret).toBe('host secret\n');
  expect(report.piped).toBe('');
  expect(report.sent).toBe('');
  // a CLI that printed no result names how it ended, so a failure here is diagnosable from the log alone
  if (!report.stdout.trimStart().startsWith('{'))
    throw new Error(`the CLI printed no result (exit ${report.code}): ${report.stderr || '(no stderr)'}`);
  return { report, result: JSON.parse(report.stdout) as ReturnType<typeof leakyRun>['result'] };
}

const pythonProgram = `
import os, socket
granted, errnos, targets = [], {}, []
for n in ${JSON.stringify(LEAKED)}:
    try:
        os.fstat(n)
        granted.append(f"{n}-fstat")
    except OSError as e:
        errnos[str(n)] = e.errno
    for name, action in (("write", lambda: os.write(n, b"LEAK")), ("list", lambda: os.listdir(f"/proc/self/fd/{n}")), ("send", lambda: socket.socket(fileno=n).send(b"LEAK"))):
        try:
            action()
            granted.append(f"{n}-{name}")
        except OSError:
            pass
for entry in os.listdir("/proc/self/fd"):
    try:
        targets.append(os.readlink("/proc/self/fd/" + entry))
    except OSError:
        pass
return {"granted": granted, "errnos": errnos, "targets": targets}`;

const typescriptProgram = `
const fs = await import('node:fs');
const granted: string[] = [];
const errnos: Record<string, string> = {};
for (const n of ${JSON.stringify(LEAKED)}) {
  try { fs.fstatSync(n); granted.push(n + '-fstat'); } catch (e) { errnos[n] = (e as NodeJS.ErrnoException).code ?? '?'; }
  try { fs.writeSync(n, 'LEAK'); granted.push(n + '-write'); } catch {}
  try { fs.readSync(n, Buffer.alloc(8)); granted.push(n + '-read'); } catch {}
}
return { granted, errnos };`;

describe.runIf(process.platform === 'linux')('descriptors the caller leaks', () => {
  for (const sandbox of ['best-effort', 'off'] as const) {
    test(`never reach a Python program (sandbox ${sandbox})`, () => {
      const file = path.join(dir, `leak-${sandbox}.py`);
      fs.writeFileSync(file, pythonProgram);
      const { report, result } = leakyRun([file, '--sandbox', sandbox]);
      expect(result.error, report.stderr).toBeUndefined();
      const value = result.value as { granted: string[]; errnos: Record<string, number>; targets: string[] };
      expect(value.granted).toEqual([]);
      // EBADF at every number: nothing is open there, not even something else
      expect(value.errnos).toEqual(Object.fromEntries(LEAKED.map((n) => [String(n), 9])));
      for (const target of Object.values(report.targets)) expect(value.targets).not.toContain(target);
    });
  }

  test('never reach a TypeScript program, where the permission model does not check descriptor I/O', () => {
    const file = path.join(dir, 'leak.ts');
    fs.writeFileSync(file, typescriptProgram);
    const { report, result } = leakyRun([file]);
    expect(result.error, report.stderr).toBeUndefined();
    expect(result.sandbox.mechanisms).toContain('only stdio and the wire cross: inherited descriptors closed');
    expect(result.value).toEqual({ granted: [], errnos: Object.fromEntries(LEAKED.map((n) => [String(n), 'EBADF'])) });
  });

  test('never reach the bindings host or an MCP server it starts', () => {
    const fdsOut = path.join(dir, 'mcp-fds.txt');
    const server = path.join(repo, 'examples', 'mcp', 'weather-server.mjs');
    const module = path.join(dir, 'leak.bindings.mjs');
    fs.writeFileSync(
      module,
      `import fs from 'node:fs';
const targets = () => fs.readdirSync('/proc/self/fd').map((n) => { try { return n + ' -> ' + fs.readlinkSync('/proc/self/fd/' + n); } catch { return n; } });
export default {
  host: { functions: { fds: { mock: async () => targets() } } },
  weather: { mcp: { command: '/bin/sh', args: ['-c', ${JSON.stringify(`ls -l /proc/self/fd > '${fdsOut}'; exec '${process.execPath}' '${server}'`)}] } },
};
`,
    );
    const program = path.join(dir, 'host-fds.ts');
    fs.writeFileSync(program, 'return await host.fds();');
    const { report, result } = leakyRun([program, '--bindings', module]);
    expect(result.error, report.stderr).toBeUndefined();
    const hostFds = result.value as string[];
    expect(hostFds.length).toBeGreaterThan(3);
    const mcpFds = fs.readFileSync(fdsOut, 'utf8');
    expect(mcpFds).toMatch(/ 0 -> /);
    for (const [n, target] of Object.entries(report.targets)) {
      expect(hostFds).not.toContain(`${n} -> ${target}`);
      expect(mcpFds).not.toContain(` ${n} -> ${target}`);
    }
  });
});
