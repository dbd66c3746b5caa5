import { listDescendants } from '../../process/launch.js';
import { delay } from '../../process/timers.js';

export { listDescendants };

const TERM_GRACE_MS = 500;

function signal(pid: number, sig: NodeJS.Signals | 0): boolean {
  try {
    process.kill(pid, sig);
    return true;
  } catch {
    return false;
  }
}

// Process groups of the MCP servers this process started, so its own exit stops them (their group outlives a
// server that crashed: a grandchild it left behind is still in it).
const liveGroups = new Set<number>();
let exitHookInstalled = false;

export function trackServerGroup(leader: number): void {
  liveGroups.add(leader);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const group of liveGroups) signal(-group, 'SIGKILL');
  });
}

// Stops a server's process group and every descendant that left it (a daemon that called setsid; `known` holds the
// descendants seen before the server was asked to exit): SIGTERM, then SIGKILL to whatever is still there after a
// grace period.
export async function stopProcessTree(leader: number, known: readonly number[] = []): Promise<void> {
  const tree = [...new Set([...known, ...(signal(leader, 0) ? listDescendants(leader) : [])])];
  const alive = (): boolean => signal(-leader, 0) || tree.some((pid) => signal(pid, 0));
  if (alive()) {
    signal(-leader, 'SIGTERM');
    for (const pid of tree) signal(pid, 'SIGTERM');
    for (let waited = 0; waited < TERM_GRACE_MS && alive(); waited += 50) await delay(50);
    signal(-leader, 'SIGKILL');
    for (const pid of tree) signal(pid, 'SIGKILL');
  }
  liveGroups.delete(leader);
}
