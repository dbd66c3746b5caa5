const { newQuickJSWASMModuleFromVariant } = require('quickjs-emscripten-core');
const variant = require('@jitl/quickjs-singlefile-cjs-release-sync').default;
(async () => {
  const mod = await newQuickJSWASMModuleFromVariant(variant);
  for (const [code, stack] of [
    ['function f(n) { return f(n + 1) + 1; }\nf(0);', +process.argv[2]],
    [
      'let d=0; function g(n) { d=n; return [1,2].map(() => g(n + 1)); }\ntry { g(0) } catch(e) { throw new Error("depth "+d) }',
      +process.argv[2],
    ],
    ['const a = []; while (true) a.push(new Array(100000).fill(1));', 0],
  ]) {
    const rt = mod.newRuntime();
    rt.setMemoryLimit(64 << 20);
    if (stack) rt.setMaxStackSize(stack);
    const st = performance.now();
    rt.setInterruptHandler(() => performance.now() - st > 3000);
    const ctx = rt.newContext();
    const r = ctx.evalCode(code, 'program.ts');
    console.log(r.error ? JSON.stringify(ctx.dump(r.error)).slice(0, 200) : 'ok', (performance.now() - st).toFixed(0));
  }
})();
