// Timing of the bindings host's liveness: the host beats every HEARTBEAT_MS; the runtime checks every CHECK_MS and
// calls the host unresponsive after UNRESPONSIVE_MS of silence (a handler in a synchronous loop blocks the beat).
export const HEARTBEAT_MS = 200;
export const CHECK_MS = 250;
export const UNRESPONSIVE_MS = 3_000;
// how long a graceful shutdown (MCP servers closed, process exits) may take before the process group is killed
export const SHUTDOWN_GRACE_MS = 600;
// how long the runtime waits for a settled run's last call reports before it builds the result without them
export const CLOSE_WAIT_MS = 1_000;
