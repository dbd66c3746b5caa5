// Builds a contender from a plain spec, so the memory probe can recreate one in its own host process.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ptcContender } from '../contenders/ptc.mjs';
import { workerContender } from '../contenders/worker.mjs';
import { quickjsContender } from '../contenders/quickjs.mjs';
import { isolatedVmContender } from '../contenders/isolated-vm.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export async function loadContender(spec) {
  if (spec.kind === 'ptc') {
    const runtimeModule = await import(pathToFileURL(path.join(repo, 'dist', 'bench', 'runtime.mjs')).href);
    return ptcContender(runtimeModule, spec);
  }
  if (spec.kind === 'worker') return workerContender();
  if (spec.kind === 'quickjs') return quickjsContender();
  if (spec.kind === 'isolated-vm') return isolatedVmContender(spec);
  throw new Error(`unknown contender kind ${spec.kind}`);
}
