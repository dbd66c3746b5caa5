// The memory snapshot's name inside a pyodide folder prepared by snapshot-cache.ts (the child looks for it there).
export const SNAPSHOT_FILE = 'ptc-snapshot.bin';
