import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// Contenders: PTC Playground's own backends through the built runtime (dist/bench/runtime.mjs), a fresh process per
// run. `engine: 'wasm'` runs the WebAssembly engine (quickjs for TypeScript) in its own child, as `--engine wasm` does.
export function ptcContender(runtimeModule, { language, sandbox, spare, pythonPath, engine = 'native' }) {
  const wasm = engine === 'wasm';
  const mode = `${wasm ? 'wasm engine, ' : ''}${sandbox ? 'sandbox on' : 'sandbox off'}, ${spare ? 'spare ready' : 'cold'}`;
  const lang = language === 'python' ? 'Python' : 'TypeScript';
  let runtime;
  const request = (workload, bindings) => ({
    language,
    program: workload.program(language === 'python' ? 'py' : 'ts'),
    sandbox: sandbox ? 'best-effort' : 'off',
    engine,
    bindings: [{ global: 'tools', functions: bindings }],
    timeoutMs: 120_000,
  });
  return {
    id: `ptc-${language === 'python' ? 'py' : 'ts'}${wasm ? '-wasm' : ''}-${sandbox ? 'sandbox' : 'nosandbox'}-${spare ? 'spare' : 'cold'}`,
    label: `PTC ${lang} (${mode})`,
    family: 'ptc',
    language,
    dialect: language === 'python' ? 'py' : 'ts',
    floor: language === 'python' ? 'python' : 'node',
    spare,
    sandbox,
    async init() {
      runtime = runtimeModule.createRuntime({ spares: spare ? 1 : 0, ...(pythonPath ? { pythonPath } : {}) });
      const probe = await runtime.run(
        runtime.resolve({ language, program: 'return 1', sandbox: sandbox ? 'best-effort' : 'off', engine }),
      );
      if (probe.error !== undefined || probe.value !== 1) {
        return {
          ok: false,
          note: `${lang} backend not available here: ${probe.error?.message ?? JSON.stringify(probe.value)}`,
        };
      }
      if (sandbox && probe.sandbox.enforcement === 'none')
        return { ok: false, note: `no sandbox layer available here (${lang})` };
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
      // a wasm guest sees no rusage of its process (no `process`, no `resource`): its row stays empty
      if (wasm) return undefined;
      const program =
        language === 'python'
          ? 'import resource\nreturn resource.getrusage(resource.RUSAGE_SELF).ru_maxrss'
          : 'return process.resourceUsage().maxRSS;';
      const result = await runtime.run(
        runtime.resolve({ language, program, sandbox: sandbox ? 'best-effort' : 'off' }),
      );
      return typeof result.value === 'number' ? result.value / 1024 : undefined;
    },
    async dispose() {
      await runtime?.dispose();
    },
  };
}

// The bindings module behind the "via its bindings host" rows: `echo` stamps each call on arrival (in the host
// process: consecutive stamps measure one round trip), `stamps` hands them over after the timed run.
const HOST_MODULE = `const stamps = [];
export default { tools: { functions: {
  echo: async (value) => (stamps.push(performance.now()), value),
  stamps: async () => stamps.splice(0),
} } };
`;

// Contenders: the same backends with their bindings in a bindings host process (a session, as `ptc` and the extension
// run them), the program's calls going straight to that host. Measured next to the in-process rows above.
export function ptcHostContender(runtimeModule, { language, pythonPath }) {
  const lang = language === 'python' ? 'Python' : 'TypeScript';
  const dialect = language === 'python' ? 'py' : 'ts';
  let dir;
  let runtime;
  let session;
  const request = (program) => ({
    language,
    program,
    plan: { mode: 'mock' },
    limits: { sandbox: 'best-effort', timeoutMs: 120_000 },
  });
  const takeStamps = async () => {
    const outcome = await session.run(request('return await tools.stamps()'));
    return outcome.kind === 'result' && Array.isArray(outcome.result.value) ? outcome.result.value : [];
  };
  return {
    id: `ptc-${dialect}-host-spare`,
    label: `PTC ${lang} via its bindings host (sandbox on, spare ready)`,
    family: 'ptc',
    language,
    dialect,
    floor: language === 'python' ? 'python' : 'node',
    spare: true,
    sandbox: true,
    // the workloads whose figures depend on where the bindings run
    only: ['seq-calls', 'parallel-calls'],
    async init() {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-bench-host-'));
      const bindingsPath = path.join(dir, 'bench.bindings.mjs');
      fs.writeFileSync(bindingsPath, HOST_MODULE);
      runtime = runtimeModule.createRuntime({ spares: 1, ...(pythonPath ? { pythonPath } : {}) });
      session = runtimeModule.createSession({ runtime, bindingsPath });
      const probe = await session.run(request('return 1'));
      if (probe.kind !== 'result' || probe.result.error !== undefined || probe.result.value !== 1) {
        return {
          ok: false,
          note: `${lang} via a bindings host not available here: ${probe.kind === 'result' ? probe.result.error?.message : probe.message}`,
        };
      }
      return { ok: true, sandboxReport: probe.result.sandbox };
    },
    // not timed: earlier stamps are dropped, then the run starts with the host up and a spare ready
    async prepare(workload) {
      await takeStamps();
      await session.warm(request(workload.program(dialect)));
    },
    async run(workload) {
      const started = performance.now();
      const outcome = await session.run(request(workload.program(dialect)));
      const wallMs = performance.now() - started;
      if (outcome.kind !== 'result') return { wallMs, ok: false, error: `${outcome.stage}: ${outcome.message}` };
      const result = outcome.result;
      const stamps = await takeStamps();
      return {
        wallMs,
        ok: result.error === undefined,
        value: result.value,
        error: result.error && `${result.error.kind}: ${result.error.message.slice(0, 300)}`,
        stamps,
      };
    },
    async dispose() {
      await session?.dispose();
      await runtime?.dispose();
      if (dir !== undefined) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
