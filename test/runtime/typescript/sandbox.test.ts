import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runTs } from '../../helpers/runtime.js';

// Real denials: a loopback server, a secret file outside the run's temp dir, a spawn target.
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
  outside = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-secret-'));
  secret = path.join(outside, 'id_rsa');
  fs.writeFileSync(secret, 'TOP SECRET');
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(outside, { recursive: true, force: true });
});

const probe = (target: string) => `
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
return out;`;

describe('TypeScript sandbox', () => {
  test('best-effort on Linux denies network, files outside the temp dir and child processes, and says so', async () => {
    const target = path.join(outside, 'written-by-program.txt');
    const before = connections;
    const r = await runTs(probe(target));
    expect(r.error).toBeUndefined();
    const value = r.value as Record<string, string>;
    expect(value.read).toMatch(/^denied/);
    expect(value.write).toMatch(/^denied/);
    expect(value.spawn).toMatch(/^denied/);
    expect(value.net).toMatch(/^denied/);
    expect(fs.existsSync(target)).toBe(false);
    expect(connections).toBe(before);
    expect(r.sandbox).toEqual({ network: 'denied', filesystem: 'denied', childProcess: 'denied', enforcement: 'full', mechanisms: ['network-namespace', 'node-permission-model'] });
  });

  test("'required' runs when every layer is available", async () => {
    const r = await runTs('return 1;', { sandbox: 'required' });
    expect(r.value).toBe(1);
    expect(r.sandbox.enforcement).toBe('full');
  });

  test("'off' is unconfined, which proves the denials above are real", async () => {
    const target = path.join(outside, 'written-when-off.txt');
    const before = connections;
    const r = await runTs(probe(target), { sandbox: 'off' });
    expect(r.value).toEqual({ read: 'TOP SECRET', write: 'written', spawn: 'spawned', net: 'hello' });
    expect(fs.existsSync(target)).toBe(true);
    expect(connections).toBe(before + 1);
    expect(r.sandbox).toMatchObject({ network: 'allowed', filesystem: 'allowed', childProcess: 'allowed', enforcement: 'none' });
  });

  test('the program may read and write its own private temp dir', async () => {
    const r = await runTs("const os = await import('node:os');\nconst fs = await import('node:fs');\nconst f = os.tmpdir() + '/a.txt';\nfs.writeFileSync(f, 'mine');\nreturn fs.readFileSync(f, 'utf8');");
    expect(r.value).toBe('mine');
  });

  test('a symlink in the temp dir does not open files outside it', async () => {
    const r = await runTs(`const os = await import('node:os');\nconst fs = await import('node:fs');\nconst link = os.tmpdir() + '/escape';\ntry { fs.symlinkSync(${JSON.stringify(secret)}, link); } catch (e: any) { return 'symlink denied:' + e.code; }\ntry { return fs.readFileSync(link, 'utf8'); } catch (e: any) { return 'read denied:' + e.code; }`);
    expect(r.value).not.toBe('TOP SECRET');
  });
});
