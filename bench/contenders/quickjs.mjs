// Contender: a fresh quickjs-emscripten runtime + context per run inside one asyncified WebAssembly module.
// Host bindings are asyncified functions: async on the host, synchronous inside QuickJS. The asyncify build can
// suspend only inside evalCodeAsync (not inside the job queue), so programs call bindings without `await`, and
// only one call can be suspended at a time: "parallel" calls run one after another.
import { lineBufferSource } from '../lib/vm-prelude.mjs';

export function quickjsContender() {
  let mod;
  return {
    id: 'quickjs',
    label: 'quickjs-emscripten context per run (asyncified bindings)',
    family: 'in-process',
    dialect: 'js-sync',
    floor: 'node',
    async init() {
      try {
        const { newQuickJSAsyncWASMModule } = await import('quickjs-emscripten');
        mod = await newQuickJSAsyncWASMModule();
        return { ok: true };
      } catch (error) {
        return { ok: false, note: `quickjs-emscripten unavailable: ${error.message}` };
      }
    },
    async run(workload, bindings) {
      const started = performance.now();
      const ctx = mod.newContext();
      let logChars = 0;
      let outcome;
      try {
        ctx.runtime.setMemoryLimit(512 * 1024 * 1024);
        const call = ctx.newAsyncifiedFunction('__call', async (nameHandle, argsHandle) => {
          const fn = bindings[ctx.getString(nameHandle)];
          const value = await fn(JSON.parse(ctx.getString(argsHandle)));
          return ctx.newString(JSON.stringify(value ?? null));
        });
        ctx.setProp(ctx.global, '__call', call);
        call.dispose();
        const emit = ctx.newFunction('__emit', (textHandle) => {
          logChars += ctx.getString(textHandle).length;
        });
        ctx.setProp(ctx.global, '__emit', emit);
        emit.dispose();
        const names = JSON.stringify(Object.keys(bindings));
        const source = `
          const tools = Object.create(null);
          for (const name of ${names}) tools[name] = (args) => JSON.parse(__call(name, JSON.stringify(args === undefined ? null : args)));
          ${lineBufferSource('__emit')}
          const __value = (function () {\n${workload.program('js-sync')}\n})();
          flush();
          JSON.stringify(__value === undefined ? null : __value);`;
        const result = await ctx.evalCodeAsync(source, 'program.js');
        if (result.error) {
          const error = ctx.dump(result.error);
          result.error.dispose();
          outcome = { ok: false, error: JSON.stringify(error) };
        } else {
          const text = ctx.getString(result.value);
          result.value.dispose();
          outcome = { ok: true, value: JSON.parse(text) };
        }
      } finally {
        ctx.dispose();
      }
      return { ...outcome, logChars, wallMs: performance.now() - started };
    },
    async dispose() {},
  };
}
