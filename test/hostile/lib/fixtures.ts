import crypto from 'node:crypto';
import dgram from 'node:dgram';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { JsonValue } from '../../../runtime/index.js';
import { type BindingNamespace } from '../../../runtime/api.js';
import type { Effect } from './corpus-format.js';
import { PlantedDeviceNode, PlantedFile, plantSysv, PtyWitness, Victim } from './host-fixtures.js';
import { KernelWitness } from './kernel-witness.js';
import { listSysv, ownedSysvKey, removeSysv, type SysvObject } from './sysv.js';

const DEV_SHM = '/dev/shm';
const hex = (bytes: number): string => crypto.randomBytes(bytes).toString('hex');

// Secrets a program must never reach; planted for real so the check can fail.
export interface Secrets {
  fileToken: string;
  file: string;
  envToken: string;
  // `NAME=value` pairs from this process's original environment block (what /proc/<host>/environ shows)
  hostEnviron: string[];
  // a root-only file in the host's real temp dir and one in the workspace (the repository the tests run in)
  hostTmpFile: string;
  hostTmpToken: string;
  workspace: string;
  workspaceFile: string;
  workspaceToken: string;
  markers(): string[];
}

export function plantSecrets(dirs: { hostTmp: string; workspace: string }): Secrets {
  const fileToken = `PTC-FILE-SECRET-${hex(8)}`;
  const envToken = `PTC-ENV-SECRET-${hex(8)}`;
  const hostTmpToken = `PTC-TMP-SECRET-${hex(8)}`;
  const workspaceToken = `PTC-WORKSPACE-SECRET-${hex(8)}`;
  const file = path.join(os.homedir(), `.ptc-hostile-secret-${hex(4)}`);
  fs.writeFileSync(file, `${fileToken}\n`, { mode: 0o600 });
  const hostTmpFile = path.join(dirs.hostTmp, `ptc-hostile-tmp-secret-${hex(4)}`);
  fs.writeFileSync(hostTmpFile, `${hostTmpToken}\n`, { mode: 0o600 });
  // under the workspace's git-ignored cache dir, so an interrupted run cannot leave an untracked file behind
  const workspaceFile = path.join(dirs.workspace, '.cache', `ptc-hostile-workspace-secret-${hex(4)}`);
  fs.mkdirSync(path.dirname(workspaceFile), { recursive: true });
  fs.writeFileSync(workspaceFile, `${workspaceToken}\n`, { mode: 0o600 });
  // set after start: only a runtime that forwards the host's env could hand it on
  process.env.PTC_HOSTILE_ENV_SECRET = envToken;
  const hostEnviron = fs
    .readFileSync('/proc/self/environ', 'utf8')
    .split('\0')
    .filter((pair) => /^(HOME|USER|VITEST\w*|npm_\w+)=.{3,}/.test(pair));
  return {
    fileToken,
    file,
    envToken,
    hostEnviron,
    hostTmpFile,
    hostTmpToken,
    workspace: dirs.workspace,
    workspaceFile,
    workspaceToken,
    markers: () => [fileToken, envToken, hostTmpToken, workspaceToken, ...hostEnviron],
  };
}

export function removeSecrets(secrets: Secrets): void {
  for (const file of [secrets.file, secrets.hostTmpFile, secrets.workspaceFile]) fs.rmSync(file, { force: true });
  delete process.env.PTC_HOSTILE_ENV_SECRET;
}

// A random 9-digit SysV key: ours alone, and never the IPC_PRIVATE key 0.

// Whether an entry whose name contains `token` exists under `root` (a few levels deep: run dir, temp dir, data).
export function tokenOnDisk(root: string, token: string, depth = 4): boolean {
  let level = [root];
  for (let d = 0; d < depth && level.length > 0; d++) {
    const next: string[] = [];
    for (const dir of level) {
      let entries: fs.Dirent[];
      try {
        entries = fs.readdirSync(dir, { withFileTypes: true });
      } catch {
        continue;
      }
      for (const e of entries) {
        if (e.name.includes(token)) return true;
        if (e.isDirectory()) next.push(path.join(dir, e.name));
      }
    }
    level = next;
  }
  return false;
}

export interface RunFixtureOptions {
  // private to this run: the program's host working directory, and where planted targets live
  outsideDir: string;
  secrets: Secrets;
  // the suite's private TMPDIR, where the runtime would put the program's temp dir on the host disk
  tmpRoot: string;
  // interpreter for the host-side helper (pty, SysV objects)
  python: string;
}

// Per-run listeners, planted targets and witnesses, created only for the placeholders a program's source uses;
// each counts what reached it. Placeholders are `{{NAME}}` in the source, replaced before the run.
export class RunFixtures {
  tcpHits = 0;
  udpHits = 0;
  unixHits = 0;
  readonly outsideDir: string;
  readonly secrets: Secrets;
  // lowercase hex, unique to this run: names the program's data (data-on-host-disk), marks what it writes to a
  // terminal (tty-injected); its upper-case form in the result is the program's admission that the kernel granted a
  // forbidden operation (kernel-granted), so the source quoted in a traceback cannot trigger it
  readonly token = hex(8);
  readonly values: Record<string, string> = {};
  readonly #options: RunFixtureOptions;
  readonly #closers: (() => Promise<void>)[] = [];
  readonly #planted = new Set<string>();
  readonly #markers: string[] = [];
  #target: PlantedFile | undefined;
  #node: PlantedDeviceNode | undefined;
  #victim: Victim | undefined;
  #pty: PtyWitness | undefined;
  #kernel: KernelWitness | undefined;
  #ownIpcKey: number | undefined;
  #plantedSysv: SysvObject[] = [];
  #sightings = 0;

  constructor(options: RunFixtureOptions) {
    this.#options = options;
    this.outsideDir = options.outsideDir;
    this.secrets = options.secrets;
    Object.assign(this.values, {
      OUTSIDE_DIR: options.outsideDir,
      SECRET_FILE: options.secrets.file,
      HOST_PID: String(process.pid),
      HOST_HOME: os.homedir(),
      HOST_TMP_SECRET: options.secrets.hostTmpFile,
      WORKSPACE: options.secrets.workspace,
      WORKSPACE_SECRET: options.secrets.workspaceFile,
      TOKEN: this.token,
    });
  }

  async start(source: string): Promise<void> {
    const uses = (name: string): boolean => source.includes(`{{${name}}}`);
    if (uses('TCP_PORT')) {
      const server = net.createServer((socket) => {
        this.tcpHits++;
        socket.destroy();
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      this.values.TCP_PORT = String((server.address() as net.AddressInfo).port);
      this.#closers.push(() => new Promise((resolve) => server.close(() => resolve())));
    }
    if (uses('UDP_PORT')) {
      const socket = dgram.createSocket('udp4');
      socket.on('message', () => this.udpHits++);
      await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
      this.values.UDP_PORT = String(socket.address().port);
      this.#closers.push(() => new Promise((resolve) => socket.close(() => resolve())));
    }
    if (uses('UNIX_PATH')) {
      const sockPath = path.join(path.dirname(this.outsideDir), `${path.basename(this.outsideDir)}.sock`);
      const server = net.createServer((socket) => {
        this.unixHits++;
        socket.destroy();
      });
      await new Promise<void>((resolve) => server.listen(sockPath, resolve));
      this.values.UNIX_PATH = sockPath;
      this.#closers.push(() => new Promise((resolve) => server.close(() => resolve())));
    }
    if (uses('TARGET_FILE'))
      this.values.TARGET_FILE = (this.#target = new PlantedFile(this.#plant('planted-target.pth'))).path;
    if (uses('DEVICE_NODE'))
      this.values.DEVICE_NODE = (this.#node = new PlantedDeviceNode(this.#plant('planted-null'))).path;
    if (uses('VICTIM_PID')) {
      this.#victim = new Victim(`PTC-VICTIM-SECRET-${hex(8)}`);
      this.#markers.push(this.#victim.secret);
      this.values.VICTIM_PID = String(this.#victim.pid);
    }
    if (uses('SHM_KEY') || uses('MSG_KEY')) {
      const keys = { shm: ownedSysvKey(), msg: ownedSysvKey() };
      const secret = `PTC-IPC-SECRET-${hex(8)}`;
      this.#plantedSysv = await plantSysv(this.#options.python, keys, secret);
      this.#markers.push(secret);
      this.values.SHM_KEY = String(keys.shm);
      this.values.MSG_KEY = String(keys.msg);
    }
    if (uses('OWN_IPC_KEY')) this.values.OWN_IPC_KEY = String((this.#ownIpcKey = ownedSysvKey()));
    if (uses('PTY_PATH')) this.values.PTY_PATH = (this.#pty = await PtyWitness.open(this.#options.python)).path;
    if (source.includes('probe.kernelLook')) this.#kernel = new KernelWitness(this.#node?.path);
  }

  #plant(name: string): string {
    this.#planted.add(name);
    return path.join(this.outsideDir, name);
  }

  // `probe.hostLook()`: answers, from the host, whether the program's data (names containing the token) is on the
  // host disk right now; only for programs that mention it, so every other program sees the usual bindings
  probeNamespace(source: string): BindingNamespace | undefined {
    if (!source.includes('probe.')) return undefined;
    const functions = Object.create(null) as Record<string, (args: JsonValue) => Promise<JsonValue>>;
    functions.hostLook = async () => {
      const seen =
        tokenOnDisk(this.#options.tmpRoot, this.token) ||
        tokenOnDisk(this.outsideDir, this.token) ||
        this.#inDevShm().length > 0;
      if (seen) this.#sightings++;
      return seen;
    };
    // `probe.kernelLook()`: the host looks at what the kernel holds for the run (kernel-witness.ts), before an attempt
    // and while the program holds what it claims was granted
    functions.kernelLook = async () => {
      this.#kernel?.look();
      return true;
    };
    return { global: 'probe', functions };
  }

  // The host's view of a kernel-granted self-report: how many looks the program asked for, and what they saw granted;
  // undefined when the program never asked.
  kernelWitness(): { looks: number; changes: string[] } | undefined {
    return this.#kernel === undefined ? undefined : { looks: this.#kernel.looks, changes: this.#kernel.changes() };
  }

  render(source: string): string {
    return source.replace(/\{\{([A-Z_]+)\}\}/g, (whole, key: string) => this.values[key] ?? whole);
  }

  #ownIpcObjects(): SysvObject[] {
    const base = this.#ownIpcKey;
    return base === undefined ? [] : listSysv().filter((o) => o.key >= base && o.key < base + 8);
  }

  // Which effects happened; `resultText` is the serialized RunResult.
  effects(resultText: string): Set<Effect> {
    const seen = new Set<Effect>();
    const entries = fs.readdirSync(this.outsideDir).filter((name) => !this.#planted.has(name));
    if (entries.length > 0) seen.add('file-created');
    if (entries.some((name) => /^core(\.\d+)?$/.test(name))) seen.add('core-dumped');
    if (entries.some((name) => /^node_trace\.\d+\.log$/.test(name))) seen.add('trace-written');
    if (this.#target?.changed()) seen.add('file-changed');
    if (this.#node?.changed()) seen.add('device-changed');
    if (this.#sightings > 0 || tokenOnDisk(this.#options.tmpRoot, this.token) || this.#inDevShm().length > 0)
      seen.add('data-on-host-disk');
    this.#victim?.sample();
    if ((this.#victim?.touches.length ?? 0) > 0) seen.add('victim-touched');
    if (this.#ownIpcObjects().length > 0) seen.add('ipc-left');
    if (this.#pty?.saw(this.token)) seen.add('tty-injected');
    if (resultText.includes(this.token.toUpperCase())) seen.add('kernel-granted');
    if (this.tcpHits > 0) seen.add('tcp-received');
    if (this.udpHits > 0) seen.add('udp-received');
    if (this.unixHits > 0) seen.add('unix-received');
    if ([...this.secrets.markers(), ...this.#markers].some((m) => resultText.includes(m))) seen.add('secret-leaked');
    // the host's env set after start can only arrive if the runtime forwards its environment: never allowed
    if (resultText.includes(this.secrets.envToken)) seen.add('env-leaked');
    return seen;
  }

  // What touched the victim, for the verdict's message.
  victimTouches(): string[] {
    return this.#victim?.touches ?? [];
  }

  // POSIX shared memory and files in the host's /dev/shm outlive every process, like data on disk
  #inDevShm(): string[] {
    try {
      return fs.readdirSync(DEV_SHM).filter((name) => name.includes(this.token));
    } catch {
      return [];
    }
  }

  async close(): Promise<void> {
    for (const name of this.#inDevShm()) fs.rmSync(path.join(DEV_SHM, name), { force: true, recursive: true });
    await Promise.all([...this.#closers.map((c) => c()), this.#victim?.close(), this.#pty?.close()]);
    removeSysv([...this.#plantedSysv, ...this.#ownIpcObjects()]);
  }
}
