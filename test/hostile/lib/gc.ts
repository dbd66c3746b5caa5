import v8 from 'node:v8';
import vm from 'node:vm';

let gc: (() => void) | undefined;

// A real collection before a memory reading: without it, garbage not yet collected looks like a leak.
export function forceGc(): void {
  if (gc === undefined) {
    const exposed = (globalThis as { gc?: () => void }).gc;
    if (exposed !== undefined) gc = exposed;
    else {
      v8.setFlagsFromString('--expose-gc');
      gc = vm.runInNewContext('gc') as () => void;
    }
  }
  gc();
  gc();
}
