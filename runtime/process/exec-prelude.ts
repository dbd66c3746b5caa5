import fs from 'node:fs';

// Every child this host starts (a sandboxed interpreter, a spare, the bindings host, an MCP server) passes through
// this prelude between fork and exec: Node's spawn (libuv) keeps every descriptor the host inherited without
// close-on-exec (a shell's `42</`, a CI runner's, an IDE's IPC pipe), and so do bubblewrap, setpriv, prlimit and the
// interpreters. The prelude closes every descriptor from `keep` up, joins the run's cgroups, then execs the command
// in the same process (same pid, same process group), so nothing else changes for the caller.

// bash, not sh: dash cannot name a descriptor above 9 in a redirection. A fixed path, never $PATH: this runs as the
// host user before any confinement.
const BASH_CANDIDATES = ['/bin/bash', '/usr/bin/bash'];

// $1: the first descriptor to close; $2: how many cgroup.procs files follow, to write this process's pid into; then
// the command. A failed join exits 125 with the reason on stderr: a run must never start outside its bounds.
const SCRIPT = [
  'keep=$1; n=$2; shift 2',
  'if [ -d /proc/self/fd ]; then dir=/proc/self/fd; else dir=/dev/fd; fi',
  'for f in "$dir"/*; do f=${f##*/}; case $f in *[!0-9]*|"") continue;; esac; [ "$f" -ge "$keep" ] && eval "exec $f>&-"; done',
  'while [ "$n" -gt 0 ]; do',
  '  echo $$ 2>/dev/null >"$1" || { echo "ptc: could not join the run\'s cgroup ($1)" >&2; exit 125; }',
  '  shift; n=$((n - 1))',
  'done',
  'exec "$@"',
].join('\n');

export const PRELUDE_JOIN_FAILED = 125;

let bash: string | null | undefined;

// The shell that runs the prelude, or undefined where there is none (Windows; a host without bash).
export function preludeShell(): string | undefined {
  if (bash === undefined) {
    bash = null;
    if (process.platform !== 'win32') {
      for (const candidate of BASH_CANDIDATES) {
        try {
          fs.accessSync(candidate, fs.constants.X_OK);
          bash = candidate;
          break;
        } catch {
          continue;
        }
      }
    }
  }
  return bash ?? undefined;
}

export interface PreludeOptions {
  // descriptors 0 … keep-1 cross into the child (stdio, the frame pipes, the feeds, an inherited connection)
  keep: number;
  // cgroup.procs files the child joins before it execs (the run's memory and task bounds)
  cgroupProcs?: readonly string[] | undefined;
}

// The argv prefix that runs `command…` through the prelude; empty where no shell exists (then nothing is closed,
// which the sandbox proof sees: it leaves a descriptor open on purpose and the program must not find it).
export function preludeArgv(options: PreludeOptions): string[] {
  const shell = preludeShell();
  const join = options.cgroupProcs ?? [];
  if (shell === undefined) {
    if (join.length > 0) throw new Error('preludeArgv: joining a cgroup needs the prelude shell');
    return [];
  }
  // -p: BASH_ENV, SHELLOPTS and exported functions from the environment are ignored (nothing runs before the script)
  return [shell, '-p', '-c', SCRIPT, 'ptc-prelude', String(options.keep), String(join.length), ...join];
}
