// Every process group the harness starts is registered here so an interrupt or a crash still stops all of them.
const groups = new Set();

export function track(pid) {
  if (pid) groups.add(pid);
}

export function untrack(pid) {
  groups.delete(pid);
}

// Returns true while any process of the group still exists.
export function groupAlive(pid) {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

// Stops one group: SIGTERM, then SIGKILL after graceMs if anything in it survived.
export async function stopGroup(pid, graceMs = 5000) {
  if (!pid) return;
  signalGroup(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (groupAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  if (groupAlive(pid)) signalGroup(pid, 'SIGKILL');
  const killDeadline = Date.now() + 2000;
  while (groupAlive(pid) && Date.now() < killDeadline) await new Promise((r) => setTimeout(r, 50));
  groups.delete(pid);
}

// Sends a signal to a whole process group; a group that is already gone is not an error.
export function signalGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch (error) {
    if (error.code !== 'ESRCH') throw error;
  }
}

// Synchronous last resort for process exit: SIGKILL every group still registered.
export function killAllTrackedSync() {
  for (const pid of groups) signalGroup(pid, 'SIGKILL');
  groups.clear();
}

let installed = false;

// Installs exit/interrupt handlers once; interrupts exit 130/143 after the groups are gone.
export function installCleanupHandlers(onInterrupt) {
  if (installed) return;
  installed = true;
  process.on('exit', killAllTrackedSync);
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ]) {
    process.on(signal, () => {
      process.stderr.write(`\n[vscode-e2e] ${signal}: stopping everything it started\n`);
      Promise.resolve(onInterrupt?.())
        .catch(() => {})
        .finally(() => {
          killAllTrackedSync();
          process.exit(code);
        });
    });
  }
}
