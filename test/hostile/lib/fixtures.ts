import crypto from 'node:crypto';
import dgram from 'node:dgram';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Effect } from './corpus-format.js';

// Secrets a program must never reach; planted for real so the check can fail.
export interface Secrets {
  fileToken: string;
  file: string;
  envToken: string;
  // `NAME=value` pairs from this process's original environment block (what /proc/<host>/environ shows)
  hostEnviron: string[];
  markers(): string[];
}

export function plantSecrets(): Secrets {
  const fileToken = `PTC-FILE-SECRET-${crypto.randomBytes(8).toString('hex')}`;
  const envToken = `PTC-ENV-SECRET-${crypto.randomBytes(8).toString('hex')}`;
  const file = path.join(os.homedir(), `.ptc-hostile-secret-${crypto.randomBytes(4).toString('hex')}`);
  fs.writeFileSync(file, `${fileToken}\n`, { mode: 0o600 });
  // set after start: only a runtime that forwards the host's env could hand it on
  process.env.PTC_HOSTILE_ENV_SECRET = envToken;
  const hostEnviron = fs
    .readFileSync('/proc/self/environ', 'utf8')
    .split('\0')
    .filter((pair) => /^(HOME|USER|VITEST\w*|npm_\w+)=.{3,}/.test(pair));
  return { fileToken, file, envToken, hostEnviron, markers: () => [fileToken, envToken, ...hostEnviron] };
}

export function removeSecrets(secrets: Secrets): void {
  fs.rmSync(secrets.file, { force: true });
  delete process.env.PTC_HOSTILE_ENV_SECRET;
}

// Loopback listeners and a private outside directory for one run; each counts what reached it.
export class RunFixtures {
  tcpHits = 0;
  udpHits = 0;
  unixHits = 0;
  readonly #closers: (() => Promise<void>)[] = [];
  readonly values: Record<string, string> = {};

  constructor(
    readonly outsideDir: string,
    readonly secrets: Secrets,
  ) {
    this.values.OUTSIDE_DIR = outsideDir;
    this.values.SECRET_FILE = secrets.file;
    this.values.HOST_PID = String(process.pid);
    this.values.HOST_HOME = os.homedir();
  }

  async start(source: string): Promise<void> {
    if (source.includes('{{TCP_PORT}}')) {
      const server = net.createServer((socket) => {
        this.tcpHits++;
        socket.destroy();
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      this.values.TCP_PORT = String((server.address() as net.AddressInfo).port);
      this.#closers.push(() => new Promise((resolve) => server.close(() => resolve())));
    }
    if (source.includes('{{UDP_PORT}}')) {
      const socket = dgram.createSocket('udp4');
      socket.on('message', () => this.udpHits++);
      await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
      this.values.UDP_PORT = String(socket.address().port);
      this.#closers.push(() => new Promise((resolve) => socket.close(() => resolve())));
    }
    if (source.includes('{{UNIX_PATH}}')) {
      const sockPath = path.join(path.dirname(this.outsideDir), `${path.basename(this.outsideDir)}.sock`);
      const server = net.createServer((socket) => {
        this.unixHits++;
        socket.destroy();
      });
      await new Promise<void>((resolve) => server.listen(sockPath, resolve));
      this.values.UNIX_PATH = sockPath;
      this.#closers.push(() => new Promise((resolve) => server.close(() => resolve())));
    }
  }

  render(source: string): string {
    return source.replace(/\{\{([A-Z_]+)\}\}/g, (whole, key: string) => this.values[key] ?? whole);
  }

  // Which effects happened; `resultText` is the serialized RunResult.
  effects(resultText: string): Set<Effect> {
    const seen = new Set<Effect>();
    if (fs.readdirSync(this.outsideDir).length > 0) seen.add('file-created');
    if (this.tcpHits > 0) seen.add('tcp-received');
    if (this.udpHits > 0) seen.add('udp-received');
    if (this.unixHits > 0) seen.add('unix-received');
    if (this.secrets.markers().some((m) => resultText.includes(m))) seen.add('secret-leaked');
    // the host's env set after start can only arrive if the runtime forwards its environment: never allowed
    if (resultText.includes(this.secrets.envToken)) seen.add('env-leaked');
    return seen;
  }

  async close(): Promise<void> {
    await Promise.all(this.#closers.map((c) => c()));
  }
}
