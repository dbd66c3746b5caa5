// Contenders: PTC Playground's own backends through the built runtime (dist/bench/runtime.mjs), a fresh process per run.
export function ptcContender(runtimeModule, { language, sandbox, spare, pythonPath }) {
  const mode = `${sandbox ? 'sandbox on' : 'sandbox off'}, ${spare ? 'spare ready' : 'cold'}`;
  const lang = language === 'python' ? 'Python' : 'TypeScript';
  let runtime;
  const request = (workload, bindings) => ({
    language,
    program: workload.program(language === 'python' ? 'py' : 'ts'),
    sandbox: sandbox ? 'best-effort' : 'off',
    bindings: [{ global: 'tools', functions: bindings }],
    timeoutMs: 120_000,
  });
  return {
    id: `ptc-${language === 'python' ? 'py' : 'ts'}-${sandbox ? 'sandbox' : 'nosandbox'}-${spare ? 'spare' : 'cold'}`,
    label: `PTC ${lang} (${mode})`,
    family: 'ptc',
    language,
    dialect: language === 'python' ? 'py' : 'ts',
    floor: language === 'python' ? 'python' : 'node',
    spare,
    sandbox,
    async init() {
      runtime = runtimeModule.createRuntime({ spares: spare ? 1 : 0, ...(pythonPath ? { pythonPath } : {}) });
      const probe = await runtime.run(runtime.resolve({ language, program: 'return 1', sandbox: sandbox ? 'best-effort' : 'off' }));
      if (probe.error !== undefined || probe.value !== 1) {
        return { ok: false, note: `${lang} backend not available here: ${probe.error?.message ?? JSON.stringify(probe.value)}` };
      }
      if (sandbox && probe.sandbox.enforcement === 'none') return { ok: false, note: `no sandbox layer available here (${lang})` };
      return { ok: true, sandboxReport: probe.sandbox };
    },
    // not timed: a run "with a spare ready" starts once the spare has announced itself
    async prepare(workload, bindings) {
      if (spare) await runtime.warm(runtime.resolve(request(workload, bindings)));
    },
    async run(workload, bindings) {
      const started = performance.now();
      const result = await runtime.run(runtime.resolve(request(workload, bindings)));
      const wallMs = performance.now() - started;
      const logChars = result.logs.reduce((n, line) => n + line.length, 0);
      return {
        wallMs,
        ok: result.error === undefined,
        value: result.value,
        error: result.error && `${result.error.kind}: ${result.error.message.slice(0, 300)}`,
        logChars,
      };
    },
    // the child's own peak RSS, as the kernel counts it, reported by a trivial program
    async childPeakRss() {
      const program =
        language === 'python' ? 'import resource\nreturn resource.getrusage(resource.RUSAGE_SELF).ru_maxrss' : 'return process.resourceUsage().maxRSS;';
      const result = await runtime.run(runtime.resolve({ language, program, sandbox: sandbox ? 'best-effort' : 'off' }));
      return typeof result.value === 'number' ? result.value / 1024 : undefined;
    },
    async dispose() {
      await runtime?.dispose();
    },
  };
}
