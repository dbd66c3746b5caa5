import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { SysvObject } from './sysv.js';

// Host-side targets a hostile program may reach for; each is measured on the host, never by asking the program.
const HELPER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'host-helper.py');
const run = promisify(execFile);

// A file outside every sandbox whose content, mtime and mode must stay as planted (e.g. a `.pth` Python runs at start).
export class PlantedFile {
  readonly #before: string;

  constructor(readonly path: string) {
    fs.writeFileSync(path, '# planted by the hostile corpus: any change is a write by the program\n', { mode: 0o644 });
    this.#before = PlantedFile.#fingerprint(path);
  }

  static #fingerprint(file: string): string {
    try {
      const st = fs.statSync(file);
      return `${st.mode}/${st.size}/${st.mtimeMs}/${fs.readFileSync(file, 'base64')}`;
    } catch {
      return 'missing';
    }
  }

  changed(): boolean {
    return PlantedFile.#fingerprint(this.path) !== this.#before;
  }
}

// A char device node (1:3, the null device) the harness makes with mknod in a private dir: its mode, owner and
// ctime must stay as made. The real /dev/null is never touched by the harness.
export class PlantedDeviceNode {
  readonly #before: string;

  constructor(readonly path: string) {
    execFileSync('mknod', ['-m', '600', path, 'c', '1', '3'], { stdio: 'ignore' });
    this.#before = PlantedDeviceNode.#fingerprint(path);
  }

  static #fingerprint(node: string): string {
    try {
      const st = fs.lstatSync(node);
      return `${st.mode}/${st.uid}/${st.gid}/${st.rdev}/${st.ctimeMs}`;
    } catch {
      return 'missing';
    }
  }

  changed(): boolean {
    return PlantedDeviceNode.#fingerprint(this.path) !== this.#before;
  }
}

interface VictimState {
  alive: boolean;
  nice: string;
  tracer: string;
  oomScoreAdj: string;
}

function readVictim(pid: number): VictimState {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const tracer = /^TracerPid:\s*(\d+)/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? '?';
    const oomScoreAdj = fs.readFileSync(`/proc/${pid}/oom_score_adj`, 'utf8').trim();
    // field 19 of stat is nice; `rest` starts at field 3; a stopped (T/t) or dead (Z) victim counts as touched
    return { alive: rest[0] !== 'Z' && rest[0] !== 'T' && rest[0] !== 't', nice: rest[16] ?? '?', tracer, oomScoreAdj };
  } catch {
    return { alive: false, nice: '?', tracer: '?', oomScoreAdj: '?' };
  }
}

// Another host process with a secret in its environment; sampled while the run lasts, so a program that renices,
// traces, stops or kills it, or changes its OOM score, is seen even if it undoes the change before it returns.
export class Victim {
  readonly #child: ChildProcess;
  readonly #exited: Promise<void>;
  readonly #initial: VictimState;
  readonly #timer: NodeJS.Timeout;
  readonly touches: string[] = [];

  constructor(readonly secret: string) {
    const sleep = ['/usr/bin/sleep', '/bin/sleep'].find((p) => fs.existsSync(p));
    const argv = sleep === undefined ? [process.execPath, '-e', 'setInterval(() => {}, 1e9)'] : [sleep, '600'];
    this.#child = spawn(argv[0] as string, argv.slice(1), {
      cwd: '/',
      stdio: 'ignore',
      env: { PTC_VICTIM_SECRET: secret },
    });
    this.#exited = new Promise((resolve) => this.#child.once('exit', () => resolve()));
    // the victim inherits this process's nice and OOM score at fork: a suite run under `nice` is not a touch
    const own = readVictim(process.pid);
    this.#initial = { alive: true, nice: own.nice, tracer: '0', oomScoreAdj: own.oomScoreAdj };
    this.#timer = setInterval(() => this.sample(), 20);
  }

  get pid(): number {
    return this.#child.pid ?? -1;
  }

  sample(): void {
    const now = readVictim(this.pid);
    for (const key of ['alive', 'nice', 'tracer', 'oomScoreAdj'] as const) {
      const note = `${key} ${String(this.#initial[key])} -> ${String(now[key])}`;
      if (now[key] !== this.#initial[key] && !this.touches.includes(note)) this.touches.push(note);
    }
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    this.#child.kill('SIGKILL');
    await this.#exited;
  }
}

// A pseudo-terminal the program may find: anything written to it or injected into its input queue (TIOCSTI) is seen.
export class PtyWitness {
  private constructor(
    readonly path: string,
    readonly helper: ChildProcess,
    readonly exited: Promise<void>,
    readonly transcript: { text: string },
  ) {}

  static async open(python: string): Promise<PtyWitness> {
    const helper = spawn(python, [HELPER, 'pty'], { stdio: ['pipe', 'pipe', 'ignore'] });
    const exited = new Promise<void>((resolve) => helper.once('exit', () => resolve()));
    const transcript = { text: '' };
    let ptyPath: string | undefined;
    let buffered = '';
    await new Promise<void>((resolve, reject) => {
      helper.once('error', reject);
      void exited.then(() => reject(new Error('the pty helper exited before giving its path')));
      helper.stdout?.setEncoding('utf8');
      helper.stdout?.on('data', (chunk: string) => {
        buffered += chunk;
        let nl: number;
        while ((nl = buffered.indexOf('\n')) >= 0) {
          const line = buffered.slice(0, nl);
          buffered = buffered.slice(nl + 1);
          if (ptyPath === undefined) {
            ptyPath = line;
            resolve();
          } else transcript.text += Buffer.from(line.slice(line.indexOf(':') + 1), 'hex').toString('latin1');
        }
      });
    });
    return new PtyWitness(ptyPath as string, helper, exited, transcript);
  }

  saw(marker: string): boolean {
    return this.transcript.text.includes(marker);
  }

  async close(): Promise<void> {
    this.helper.stdin?.end();
    const killer = setTimeout(() => this.helper.kill('SIGKILL'), 2_000);
    await this.exited;
    clearTimeout(killer);
  }
}

// Root-only SysV shared memory and a message queue holding `secret`, in the host's IPC namespace.
export async function plantSysv(
  python: string,
  keys: { shm: number; msg: number },
  secret: string,
): Promise<SysvObject[]> {
  const { stdout } = await run(python, [HELPER, 'sysv', String(keys.shm), String(keys.msg), secret]);
  const [shmid, msqid] = stdout.trim().split(/\s+/).map(Number);
  return [
    { kind: 'shm', key: keys.shm, id: shmid ?? -1 },
    { kind: 'msg', key: keys.msg, id: msqid ?? -1 },
  ];
}
