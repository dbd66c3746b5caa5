import { createRuntime } from '../../../runtime/index.js';

export type PythonStatus = { ready: true } | { ready: false; reason: string };

let cached: Promise<PythonStatus> | undefined;

// Whether the CPython backend really runs programs in this checkout (it is built in parallel with this suite).
export function pythonBackendStatus(): Promise<PythonStatus> {
  cached ??= (async (): Promise<PythonStatus> => {
    const runtime = createRuntime({ spares: 0 });
    try {
      const r = await runtime.run(runtime.resolve({ language: 'python', program: 'return 6 * 7', timeoutMs: 20_000 }));
      if (r.value === 42 && r.error === undefined) return { ready: true };
      return {
        ready: false,
        reason: `a trivial Python program did not return 42 (${r.error?.kind ?? 'no error'}: ${r.error?.message ?? JSON.stringify(r.value)})`,
      };
    } catch (error) {
      return { ready: false, reason: `running a trivial Python program threw: ${String(error)}` };
    } finally {
      await runtime.dispose();
    }
  })();
  return cached;
}
