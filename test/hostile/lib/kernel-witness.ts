import fs from 'node:fs';
import { descendants } from './leaks.js';

// The host's own view of what the kernel granted a run, for a program's self-report that a forbidden operation
// succeeded (kernel-granted). A WebAssembly engine answers such calls from Emscripten's in-memory emulation, so its
// report says nothing about the host: the program calls probe.kernelLook() before the attempt and again while it holds
// what it claims, and the host looks each time at what the run's processes hold.

// Device nodes a program may name: their mode and owner are watched. Their ctime is not: every process on the host
// shares them, and a mode-preserving chmod by another (the sandbox proof of a run under the partial, unshare-only
// sandbox runs as root and may chmod /dev/null to its own mode) moved it during a wasm run of the other suite. The
// harness's planted node is the run's own, so its ctime is watched too: a chmod or chown that reached it moves it even
// when it keeps the mode.
const HOST_DEVICES = ['/dev/null', '/dev/zero', '/dev/full', '/dev/random', '/dev/urandom', '/dev/tty'];

interface Look {
  // socket inodes held by each process of this test process's tree
  sockets: Map<number, Set<string>>;
  // AF_PACKET sockets (by inode) that one of those processes holds, from its network namespace's /proc/<pid>/net/packet
  packet: string[];
}

function deviceFingerprint(node: string, ctime: boolean): string {
  try {
    const st = fs.lstatSync(node, { bigint: true });
    return `${st.mode}/${st.uid}/${st.gid}/${st.rdev}${ctime ? `/${st.ctimeNs}` : ''}`;
  } catch {
    return 'missing';
  }
}

function socketsOf(pid: number): Set<string> {
  const out = new Set<string>();
  let fds: string[];
  try {
    fds = fs.readdirSync(`/proc/${pid}/fd`);
  } catch {
    return out;
  }
  for (const fd of fds) {
    try {
      const target = fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
      if (target.startsWith('socket:[')) out.add(target.slice('socket:['.length, -1));
    } catch {
      // closed meanwhile
    }
  }
  return out;
}

// Inodes of the packet sockets in `pid`'s network namespace (the last column of /proc/<pid>/net/packet).
function packetInodes(pid: number): string[] {
  try {
    return fs
      .readFileSync(`/proc/${pid}/net/packet`, 'utf8')
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(/\s+/).pop() ?? '')
      .filter((inode) => /^\d+$/.test(inode));
  } catch {
    return [];
  }
}

export class KernelWitness {
  readonly #devices: Map<string, { fingerprint: string; ctime: boolean }>;
  readonly #looks: Look[] = [];

  // `planted`: the harness's own device node for this run, when the program uses one
  constructor(planted: string | undefined) {
    const watched = [
      ...HOST_DEVICES.map((node) => ({ node, ctime: false })),
      ...(planted === undefined ? [] : [{ node: planted, ctime: true }]),
    ];
    this.#devices = new Map(
      watched.map(({ node, ctime }) => [node, { fingerprint: deviceFingerprint(node, ctime), ctime }]),
    );
  }

  // One look at every process this test process started (the run's child among them), taken during a binding call.
  look(): void {
    const sockets = new Map<number, Set<string>>();
    const packet = new Set<string>();
    for (const proc of descendants()) {
      const held = socketsOf(proc.pid);
      sockets.set(proc.pid, held);
      for (const inode of packetInodes(proc.pid)) if (held.has(inode)) packet.add(inode);
    }
    this.#looks.push({ sockets, packet: [...packet] });
  }

  get looks(): number {
    return this.#looks.length;
  }

  // What the host saw granted: a socket a process gained after the first look (compared per process alive in both,
  // so other runs' children coming and going are not counted), an AF_PACKET socket held at any look, a device node
  // whose mode or owner changed since the run began (or, the planted one, its ctime).
  changes(): string[] {
    const out: string[] = [];
    const [first, ...later] = this.#looks;
    for (const look of later) {
      for (const [pid, held] of look.sockets) {
        const before = first?.sockets.get(pid);
        if (before === undefined) continue;
        for (const inode of held) if (!before.has(inode)) out.push(`process ${pid} gained socket inode ${inode}`);
      }
    }
    for (const look of this.#looks)
      for (const inode of look.packet) out.push(`an AF_PACKET socket (inode ${inode}) was open in the run's tree`);
    for (const [node, { fingerprint: before, ctime }] of this.#devices) {
      const now = deviceFingerprint(node, ctime);
      if (now !== before) out.push(`host device node ${node} changed (${before} -> ${now})`);
    }
    return [...new Set(out)];
  }
}
