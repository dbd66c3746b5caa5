// Timing of the bindings host's liveness: the host beats every HEARTBEAT_MS; the runtime checks every CHECK_MS and
// calls the host unresponsive after UNRESPONSIVE_MS of silence (a handler in a synchronous loop blocks the beat).
export const HEARTBEAT_MS = 200;
export const CHECK_MS = 250;
// generous: the host's own work on a huge value (a 200 000-deep argument is checked several times) also holds its
// loop for seconds on a loaded machine, and a handler killed for being slow is worse than one noticed late
export const UNRESPONSIVE_MS = 10_000;
// a host heard from within this long is answering (its beat comes every HEARTBEAT_MS)
export const RESPONSIVE_MS = 3 * HEARTBEAT_MS;
// how long a graceful shutdown (MCP servers closed, process exits) may take before the process group is killed
export const SHUTDOWN_GRACE_MS = 500;
// how long the runtime waits for a settled run's last call reports (a responsive host sends them at once) before it
// takes the calls from the host's flight record instead
export const CLOSE_WAIT_MS = 250;
