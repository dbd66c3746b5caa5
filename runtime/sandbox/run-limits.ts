// Tasks (processes and threads) one run may have: raw clone() from Python's ctypes would otherwise take the host's
// pids (pid_max is 32 768 on many hosts) and unaccounted kernel memory. Node needs about a dozen.
export const TASK_LIMIT = 256;
// Open descriptors one run may have (the usual Linux default soft limit).
export const FILE_LIMIT = 1024;
