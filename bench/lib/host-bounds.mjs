// Host memory of real `ptc run` processes (issue 12: "the host stays bounded"): the peak RSS (VmHWM, read by a
// preload as the process exits) of one `ptc run --json` whose program fills the output cap, and of one that makes
// 10^6 binding calls, against the same command running a trivial program. Output goes to /dev/null, so printing the
// result is part of what is measured.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const MiB = 1024 * 1024;

// Programs per case: `cap` is the output cap in bytes.
const CASES = [
  {
    id: 'lines',
    title: 'lines of 1 KiB until past the cap',
    typescript: (cap) =>
      `const line = 'x'.repeat(1023);\nfor (let i = 0; i < ${Math.ceil(cap / 1024) + 64}; i++) console.log(line);\nreturn 1;`,
    python: (cap) => `line = 'x' * 1023\nfor i in range(${Math.ceil(cap / 1024) + 64}):\n    print(line)\nreturn 1`,
  },
  {
    id: 'empty-lines',
    title: 'empty lines until the run ends',
    typescript: () => "for (;;) console.log('');",
    python: () => "while True:\n    print('')",
  },
  {
    id: 'value',
    title: 'a returned string of 90 % of the cap',
    typescript: (cap) => `return 'z'.repeat(${Math.floor(cap * 0.9)});`,
    python: (cap) => `return 'z' * ${Math.floor(cap * 0.9)}`,
  },
  {
    id: 'one-write',
    title: 'one write of 110 % of the cap',
    typescript: (cap) => `process.stdout.write('y'.repeat(${Math.floor(cap * 1.1)}));\nreturn 1;`,
  },
];

const CALLS_PROGRAM = (n) =>
  `const batch = 1_000;\nfor (let i = 0; i < ${n}; i += batch) await Promise.all(Array.from({ length: batch }, (_, j) => tools.echo({ i: i + j })));\nreturn ${n};`;

export async function measureHostBounds({ repo, quick, log, pythonPath }) {
  const cli = path.join(repo, 'dist', 'cli.mjs');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-bench-host-'));
  const preload = path.join(dir, 'hwm.mjs');
  fs.writeFileSync(
    preload,
    "import fs from 'node:fs';\nprocess.on('exit', () => {\n  const kb = /VmHWM:\\s+(\\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1];\n  fs.writeSync(2, `\\nptc-host-peak-kb ${kb}\\n`);\n});\n",
  );
  const bindings = path.join(dir, 'echo.bindings.mjs');
  fs.writeFileSync(bindings, 'export default { tools: { functions: { echo: async (args) => args } } };\n');
  const run = async (name, source, args) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, source);
    return ptcPeak({ cli, preload, file, args });
  };
  const rows = [];
  try {
    const baseline = await run('trivial.ts', 'return 1;', []);
    log(`  ptc run, trivial program: host peak ${mb(baseline.peakMb)} MB`);
    rows.push({ id: 'baseline', label: 'ptc run --json, trivial program', ...baseline });
    const caps = quick ? [16 * MiB] : [16 * MiB, 64 * MiB];
    for (const cap of caps) {
      for (const c of CASES) {
        for (const language of ['typescript', 'python']) {
          if (c[language] === undefined || (language === 'python' && pythonPath === undefined)) continue;
          const r = await run(`${c.id}-${cap}.${language === 'python' ? 'py' : 'ts'}`, c[language](cap), [
            '--max-output-bytes',
            String(cap),
            '--memory-mb',
            '2048',
            '--timeout-ms',
            '600000',
          ]);
          const growthMb =
            r.peakMb === undefined || baseline.peakMb === undefined ? undefined : r.peakMb - baseline.peakMb;
          const row = {
            id: `cap-${c.id}-${language}-${cap / MiB}`,
            case: c.id,
            language,
            capMb: cap / MiB,
            label: `${language}, ${c.title}, cap ${cap / MiB} MiB`,
            ...r,
          };
          if (growthMb !== undefined) Object.assign(row, { growthMb, perCap: growthMb / (cap / MiB) });
          rows.push(row);
          log(
            `  ${row.label.padEnd(62)} host peak ${mb(r.peakMb)} MB (+${mb(growthMb)}, ${row.perCap?.toFixed(2) ?? '–'}× the cap), exit ${r.code}`,
          );
        }
      }
    }
    const calls = quick ? 100_000 : 1_000_000;
    const r = await run(`calls-${calls}.ts`, CALLS_PROGRAM(calls), ['--bindings', bindings, '--timeout-ms', '600000']);
    const row = { id: 'calls', calls, label: `typescript, ${calls.toLocaleString('en')} binding calls`, ...r };
    if (r.peakMb !== undefined && baseline.peakMb !== undefined) row.growthMb = r.peakMb - baseline.peakMb;
    rows.push(row);
    log(
      `  ${row.label.padEnd(62)} host peak ${mb(r.peakMb)} MB (+${mb(row.growthMb)}), exit ${r.code}, ${(r.wallMs / 1000).toFixed(1)} s`,
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

const mb = (v) => (v === undefined ? '–' : v.toFixed(0));

function ptcPeak({ cli, preload, file, args }) {
  return new Promise((resolve) => {
    const out = fs.openSync('/dev/null', 'w');
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', preload, cli, 'run', file, '--json', ...args], {
      stdio: ['ignore', out, 'pipe'],
    });
    fs.closeSync(out);
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.once('close', (code) => {
      const kb = /ptc-host-peak-kb (\d+)/.exec(stderr)?.[1];
      resolve({
        code,
        wallMs: performance.now() - started,
        peakMb: kb === undefined ? undefined : Number(kb) / 1024,
        ...(kb === undefined ? { error: stderr.slice(-300) } : {}),
      });
    });
  });
}
