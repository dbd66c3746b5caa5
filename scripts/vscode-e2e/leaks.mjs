// Finds processes that outlived the servers: anything whose command line or environment mentions the run's temp dir
// (every server process inherits XDG_* dirs inside it, and extension children run from the installed extension).
import { readdir, readFile } from 'node:fs/promises';

async function readProc(pid, file) {
  try {
    return (await readFile(`/proc/${pid}/${file}`)).toString('utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

// Lists { pid, cmdline } of live processes tied to tmp (Linux /proc; elsewhere nothing is found).
export async function findLeakedProcesses(tmp) {
  let entries;
  try {
    entries = await readdir('/proc');
  } catch {
    return [];
  }
  const leaked = [];
  for (const name of entries) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    const stat = await readProc(name, 'stat');
    if (!stat || / Z /.test(stat.slice(stat.lastIndexOf(')')))) continue;
    const cmdline = await readProc(name, 'cmdline');
    const environ = await readProc(name, 'environ');
    if (cmdline.includes(tmp) || environ.includes(tmp))
      leaked.push({ pid: Number(name), cmdline: cmdline.trim().slice(0, 300) });
  }
  return leaked;
}

// SIGKILLs the given processes (after they were reported as a failure).
export async function stopLeakedProcesses(leaked) {
  for (const { pid } of leaked) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}
