import fs from 'node:fs';
import path from 'node:path';
import { loadPyodide } from 'pyodide';
import { GUEST_MODULES, loadGuest, type GuestModuleName } from '../../runtime/wasm/pyodide/guest.js';
import { driveGuest } from '../../runtime/wasm/pyodide/guest-driver.js';
import { pyodideFolder } from '../../runtime/wasm/pyodide/pyodide-engine.js';

// The guest runner's modules as the repository has them (the child bundles the same files).
export function guestModules(): Record<GuestModuleName, string> {
  const entries = GUEST_MODULES.map((name) => [name, fs.readFileSync(path.join('python', `${name}.py`), 'utf8')]);
  return Object.fromEntries(entries) as Record<GuestModuleName, string>;
}

// The done frame of one program run in a Pyodide interpreter loaded in this process WITHOUT the lockdown (Pyodide as it
// comes, `js` being this process's global object): the controls of the attacks on the embedding.
export async function runUnlocked(program: string): Promise<{ value?: unknown; error?: { message: string } }> {
  const folder = pyodideFolder();
  if (folder === undefined) throw new Error("Pyodide's files are missing: run `npm run build`");
  const guest = await loadGuest({ loadPyodide, indexURL: `${folder}/`, modules: guestModules(), lockdown: false });
  const boot = { code: program, namespaces: [], maxOutputBytes: 1 << 20, maxPendingCalls: 4 };
  return new Promise((resolve, reject) => {
    driveGuest(guest, JSON.stringify(boot), {
      call: () => reject(new Error('the program called a binding: none is offered here')),
      log: () => undefined,
      done: (frame) => resolve(JSON.parse(frame) as { value?: unknown; error?: { message: string } }),
      exit: (code) => reject(new Error(`the program exited with ${code}`)),
      failed: reject,
    });
  });
}
