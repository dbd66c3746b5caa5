// Issue 16: how heavy the extension is to load. The activation bundle as the VSIX ships it (a production build of
// dist/extension.cjs, copied to dist/bench/) and its cold activation: each sample a fresh Node process that require()s
// the bundle and calls activate() against a stand-in for the `vscode` module (bench/lib/activation-host.mjs says
// exactly what the stand-in does and what is not included).
// Alone: node bench/lib/activation.mjs [--quick]  (prints the row and its targets; writes no report)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { round, summarize } from './stats.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const BUNDLE_LIMIT_BYTES = 1024 * 1024;
export const ACTIVATION_LIMIT_MS = 250;

const stat = (values) => {
  const s = summarize(values);
  return { n: s.n, p50: round(s.p50, 1), p95: round(s.p95, 1), min: round(s.min, 1), max: round(s.max, 1) };
};

// Returns { bundleBytes, samples, totalMs, requireMs, activateMs, cpuMs, selfReportedMs, failures } (stats: { n, p50,
// p95, min, max }).
export async function measureActivation({ repo, quick = false, log = () => {} }) {
  const outfile = path.join(repo, 'dist', 'bench', 'extension.cjs');
  const { default: buildExtension } = await import(
    pathToFileURL(path.join(repo, 'scripts', 'build-extension.mjs')).href
  );
  // the bundle's build log line would interleave with the bench's
  const write = process.stdout.write;
  process.stdout.write = () => true;
  try {
    await buildExtension({ production: true, outfile });
  } finally {
    process.stdout.write = write;
  }
  const bundleBytes = fs.statSync(outfile).size;
  const samples = quick ? 5 : 15;
  const seen = { totalMs: [], requireMs: [], activateMs: [], cpuMs: [], selfReportedMs: [] };
  const failures = [];
  for (let i = 0; i < samples; i++) {
    const r = spawnSync(
      process.execPath,
      [path.join(here, 'activation-host.mjs'), outfile, path.join(repo, 'extension')],
      {
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    let parsed;
    try {
      parsed = JSON.parse(r.stdout.trim().split('\n').pop() ?? '');
    } catch {
      failures.push(
        `no result (exit ${r.status}): ${(r.stderr || r.stdout).trim().split('\n').slice(-3).join(' ').slice(0, 200)}`,
      );
      continue;
    }
    if (parsed.failure) failures.push(parsed.failure.slice(0, 200));
    else for (const key of Object.keys(seen)) if (typeof parsed[key] === 'number') seen[key].push(parsed[key]);
  }
  const row = { bundleBytes, samples, failures: failures.slice(0, 3) };
  for (const [key, values] of Object.entries(seen)) if (values.length > 0) row[key] = stat(values);
  log(
    `  activation bundle ${(bundleBytes / 1024).toFixed(0)} KiB; require() + activate() p50 ${row.totalMs?.p50 ?? '–'} ms (require ${row.requireMs?.p50 ?? '–'}, activate ${row.activateMs?.p50 ?? '–'}, CPU ${row.cpuMs?.p50 ?? '–'}, self-reported ${row.selfReportedMs?.p50 ?? '–'}), ${samples} cold processes${failures.length ? `, ${failures.length} failed: ${failures[0]}` : ''}`,
  );
  return row;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const repo = path.resolve(here, '..', '..');
  const { evaluateTargets } = await import('./targets.mjs');
  const activation = await measureActivation({
    repo,
    quick: process.argv.includes('--quick'),
    log: (line) => process.stderr.write(`${line}\n`),
  });
  const targets = evaluateTargets({ workloads: {}, memory: [], hostBounds: [], render: [], activation }).filter(
    (t) => t.issue === 16,
  );
  process.stdout.write(
    `${targets.map((t) => `${t.pass === true ? 'PASS' : t.pass === false ? 'MISS' : 'n/a '}  ${t.target}: ${t.measured}`).join('\n')}\n`,
  );
}
