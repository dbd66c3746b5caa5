import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Language } from '../../../runtime/protocol/run-result.js';
import { run } from '../../helpers/runtime.js';

// Real denials on both backends: a loopback server, a secret in a home-like dir outside the run, a spawn target.
let server: net.Server;
let port = 0;
let connections = 0;
let outside: string;
let secret: string;

beforeAll(async () => {
  server = net.createServer((socket) => {
    connections++;
    socket.end('hello');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as net.AddressInfo).port;
  outside = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-home-'));
  fs.mkdirSync(path.join(outside, '.ssh'));
  secret = path.join(outside, '.ssh', 'id_rsa');
  fs.writeFileSync(secret, 'TOP SECRET');
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(outside, { recursive: true, force: true });
});

const probes: Record<Language, (target: string) => string> = {
  typescript: (target) => `
const fs = await import('node:fs');
const net = await import('node:net');
const cp = await import('node:child_process');
const out: Record<string, string> = {};
try { out.read = fs.readFileSync(${JSON.stringify(secret)}, 'utf8'); } catch (e: any) { out.read = 'denied:' + e.code; }
try { fs.writeFileSync(${JSON.stringify(target)}, 'x'); out.write = 'written'; } catch (e: any) { out.write = 'denied:' + e.code; }
try { out.spawn = String(cp.spawnSync('/bin/echo', ['spawned']).stdout).trim(); } catch (e: any) { out.spawn = 'denied:' + e.code; }
out.net = await new Promise<string>((res) => {
  const s = net.connect(${port}, '127.0.0.1');
  s.setTimeout(2000, () => { s.destroy(); res('denied:timeout'); });
  s.on('data', (d) => { res(String(d)); s.destroy(); });
  s.on('error', (e: any) => res('denied:' + e.code));
});
return out;`,
  python: (target) => `
import socket, subprocess
out = {}
try:
    out['read'] = open(${JSON.stringify(secret)}).read()
except OSError as e:
    out['read'] = 'denied:' + type(e).__name__
try:
    open(${JSON.stringify(target)}, 'w').write('x')
    out['write'] = 'written'
except OSError as e:
    out['write'] = 'denied:' + type(e).__name__
try:
    out['spawn'] = subprocess.run(['/bin/echo', 'spawned'], capture_output=True, text=True).stdout.strip()
except OSError as e:
    out['spawn'] = 'denied:' + type(e).__name__
try:
    with socket.create_connection(('127.0.0.1', ${port}), timeout=2) as s:
        out['net'] = s.recv(16).decode()
except OSError as e:
    out['net'] = 'denied:' + type(e).__name__
return out`,
};

describe.each(['typescript', 'python'] as const)('sandbox parity (%s)', (language) => {
  test('best-effort denies network, files outside the temp dir and child processes, and says so', async () => {
    const target = path.join(outside, `written-by-${language}.txt`);
    const before = connections;
    const r = await run(language, probes[language](target));
    expect(r.error).toBeUndefined();
    const value = r.value as Record<string, string>;
    expect(value.read).toMatch(/^denied/);
    expect(value.write).toMatch(/^denied/);
    expect(value.spawn).toMatch(/^denied/);
    expect(value.net).toMatch(/^denied/);
    expect(fs.existsSync(target)).toBe(false);
    expect(connections).toBe(before);
    expect(r.sandbox).toMatchObject({
      network: 'denied',
      filesystem: 'denied',
      childProcess: 'denied',
      enforcement: 'full',
    });
    // one OS sandbox for both languages, then each language's own second layer
    expect(r.sandbox.mechanisms[0]).toMatch(/^bubblewrap: ipc, uts, net, pid, mount, cgroup namespaces/);
    expect(r.sandbox.mechanisms.slice(1, -1)).toEqual([
      'read-only minimal root (interpreter and libraries only)',
      'size-capped tmpfs /tmp',
      'seccomp (no new processes, threads share one descriptor table, no namespace/mount/ptrace/bpf/io_uring/keyring/memfd/SysV IPC/aio/inotify/mqueue/sync/page-cache calls, no xattrs, AF_UNIX sockets only)',
      'only stdio and the wire cross: inherited descriptors closed',
      '/dev without ptys or shm',
      'no capabilities, no_new_privs, no core dumps',
      'at most 256 tasks (threads included)',
      // where this host can make one (cgroup v1 as root here); elsewhere `missing` names it
      ...(r.sandbox.missing === undefined
        ? ['a cgroup per run (memory bound incl. tmpfs, inodes, dentries, socket and pipe buffers; tasks)']
        : []),
    ]);
    expect(r.sandbox.mechanisms.at(-1)).toBe(
      language === 'typescript' ? 'node-permission-model' : 'seccomp exec filter (Python runner)',
    );
    for (const gap of r.sandbox.missing ?? [])
      expect(gap).toMatch(/^kernel memory and tasks are not bounded per run: /);
  });

  test("'off' is unconfined, which proves the denials above are real", async () => {
    const target = path.join(outside, `written-when-off-${language}.txt`);
    const before = connections;
    const r = await run(language, probes[language](target), { sandbox: 'off' });
    expect(r.value).toEqual({ read: 'TOP SECRET', write: 'written', spawn: 'spawned', net: 'hello' });
    expect(fs.existsSync(target)).toBe(true);
    expect(connections).toBe(before + 1);
    expect(r.sandbox).toMatchObject({
      network: 'allowed',
      filesystem: 'allowed',
      childProcess: 'allowed',
      enforcement: 'none',
    });
  });

  test("'required' runs when every layer is available", async () => {
    const r = await run(language, 'return 1', { sandbox: 'required' });
    expect(r.value).toBe(1);
    expect(r.sandbox.enforcement).toBe('full');
  });
});

describe('TypeScript sandbox: its own temp dir', () => {
  test('the program may read and write its own private temp dir', async () => {
    const r = await run(
      'typescript',
      "const os = await import('node:os');\nconst fs = await import('node:fs');\nconst f = os.tmpdir() + '/a.txt';\nfs.writeFileSync(f, 'mine');\nreturn fs.readFileSync(f, 'utf8');",
    );
    expect(r.value).toBe('mine');
  });

  test('a symlink in the temp dir does not open files outside it', async () => {
    const r = await run(
      'typescript',
      `const os = await import('node:os');\nconst fs = await import('node:fs');\nconst link = os.tmpdir() + '/escape';\ntry { fs.symlinkSync(${JSON.stringify(secret)}, link); } catch (e: any) { return 'symlink denied:' + e.code; }\ntry { return fs.readFileSync(link, 'utf8'); } catch (e: any) { return 'read denied:' + e.code; }`,
    );
    expect(r.value).not.toBe('TOP SECRET');
  });
});

describe('TypeScript sandbox: the V8/Node escape hatches', () => {
  test('run-time V8 flags and trace_events are unavailable; raising priority is refused; nothing lands in the host cwd', async () => {
    const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-cwd-'));
    try {
      const r = await run(
        'typescript',
        `const v8 = await import('node:v8');
const te = await import('node:trace_events');
const os = await import('node:os');
const out: Record<string, string> = {};
const attempt = (name: string, action: () => unknown) => { try { action(); out[name] = 'allowed'; } catch (e: any) { out[name] = 'denied'; } };
attempt('v8Flags', () => v8.setFlagsFromString('--redirect-code-traces-to=${cwd}/pwned.pth'));
attempt('traceEvents', () => te.createTracing({ categories: ['v8'] }).enable());
attempt('priority', () => os.setPriority(0, -5));
return out;`,
        { cwd },
      );
      expect(r.value).toEqual({ v8Flags: 'denied', traceEvents: 'denied', priority: 'denied' });
      const aborted = await run('typescript', 'process.abort();', { cwd });
      expect(aborted.error?.kind).toBe('worker-exit');
      // no trace log, no core file, no code-trace file: the host's working directory is untouched
      expect(fs.readdirSync(cwd)).toEqual([]);
    } finally {
      fs.rmSync(cwd, { recursive: true, force: true });
    }
  });
});
