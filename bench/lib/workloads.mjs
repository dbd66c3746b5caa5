// The workloads, each as a program per dialect: `ts` (PTC TypeScript), `js` (Worker, isolated-vm: async bindings),
// `js-sync` (QuickJS: asyncified bindings look synchronous inside the VM), `py` (PTC Python).
const DRIP = 25_000_000;
const CALLS_SEQ = 1_000;
const CALLS_PAR = 10_000;
const ONE_MB = 1_048_576;

// A CPU-bound kernel: a linear congruential generator, `n` steps, exact in doubles (products stay below 2^53), so
// JS and Python compute the same value.
export const cpuKernelJs = (n) =>
  `let x = 1;\nfor (let i = 0; i < ${n}; i++) x = (x * 1664525 + 1013904223) % 2147483648;\nreturn x;`;
export const cpuKernelPy = (n) =>
  `x = 1\nfor i in range(${n}):\n    x = (x * 1664525 + 1013904223) % 2147483648\nreturn x`;

export function expectedLcg(n) {
  let x = 1;
  for (let i = 0; i < n; i++) x = (x * 1664525 + 1013904223) % 2147483648;
  return x;
}

// iterations: [full, quick]; `slow` contenders (interpreters) get `slowIterations`
export function workloads({ cpuStepsJs, cpuStepsPy }) {
  const cpuValueJs = expectedLcg(cpuStepsJs);
  const cpuValuePy = expectedLcg(cpuStepsPy);
  return [
    {
      id: 'trivial',
      title: 'Trivial program (`return 1`), request to result',
      metric: 'wall',
      iterations: [20, 8],
      program: () => 'return 1',
      check: (r) => r.value === 1,
    },
    {
      id: 'seq-calls',
      title: `${CALLS_SEQ} sequential binding calls: one round trip`,
      metric: 'round-trip',
      iterations: [6, 3],
      program: (d) =>
        d === 'py'
          ? `for i in range(${CALLS_SEQ}):\n    await tools.echo({"i": i})\nreturn 1`
          : `for (let i = 0; i < ${CALLS_SEQ}; i++) ${d === 'js-sync' ? '' : 'await '}tools.echo({ i });\nreturn 1`,
      check: (r, calls) => r.value === 1 && calls === CALLS_SEQ,
    },
    {
      id: 'parallel-calls',
      title: `${CALLS_PAR.toLocaleString('en')} calls via Promise.all / asyncio.gather, whole run`,
      metric: 'wall',
      iterations: [6, 3],
      program: (d) =>
        d === 'py'
          ? `import asyncio\nr = await asyncio.gather(*(tools.echo({"i": i}) for i in range(${CALLS_PAR})))\nreturn len(r)`
          : d === 'js-sync'
            ? `const r = Array.from({ length: ${CALLS_PAR} }, (_, i) => tools.echo({ i }));\nreturn r.length;`
            : `const r = await Promise.all(Array.from({ length: ${CALLS_PAR} }, (_, i) => tools.echo({ i })));\nreturn r.length;`,
      check: (r, calls) => r.value === CALLS_PAR && calls === CALLS_PAR,
    },
    {
      id: 'return-1mb',
      title: '1 MB return value, whole run',
      metric: 'wall',
      iterations: [10, 4],
      program: (d) => (d === 'py' ? `return "x" * ${ONE_MB}` : `return 'x'.repeat(${ONE_MB});`),
      check: (r) => typeof r.value === 'string' && r.value.length === ONE_MB,
    },
    {
      id: 'drip-25mb',
      title: '25 MB written one character at a time, whole run',
      metric: 'wall',
      iterations: [2, 1],
      // each run is seconds long: JIT warm-up is noise, a warm-up round would only double the phase
      warmup: false,
      // an interpreter calling the host 25 million times: one quick-mode run took over 6 minutes on 2 cores
      skip: {
        quickjs:
          'skipped: 25 million host-bound calls interpreted by QuickJS took over 6 minutes for one run on this machine, beyond the bench budget',
      },
      program: (d) =>
        d === 'py'
          ? `import sys\nw = sys.stdout.write\nfor _ in range(${DRIP}):\n    w("x")\nreturn 1`
          : `for (let i = 0; i < ${DRIP}; i++) ${d === 'ts' ? 'process.stdout.write' : 'write'}('x');\nreturn 1;`,
      check: (r) => r.value === 1 && r.logChars === DRIP,
    },
    {
      id: 'cpu-200ms',
      title: 'CPU-bound loop (≈200 ms of work in-process), whole run',
      metric: 'wall',
      iterations: [5, 2],
      slowIterations: [1, 1],
      warmup: false,
      program: (d) => (d === 'py' ? cpuKernelPy(cpuStepsPy) : cpuKernelJs(cpuStepsJs)),
      check: (r, _calls, dialect) => r.value === (dialect === 'py' ? cpuValuePy : cpuValueJs),
    },
  ];
}
