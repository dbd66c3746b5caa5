// `ptc test` at scale (issue 17): 1 000 trivial cells across 50 notebooks, each replayed from its cassette, through
// real `ptc test` processes: the whole suite with --jobs 2, and shard 1 of 2 of the same suite.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const NOTEBOOKS = 50;
const CELLS = 20;

// Every cell calls one binding (answered from its cassette) and returns what it got.
function writeSuite(dir, notebooks, cells) {
  for (let n = 0; n < notebooks; n++) {
    const folder = path.join(dir, `nb-${String(n).padStart(2, '0')}`);
    fs.mkdirSync(path.join(folder, '.ptc', 'cassettes', 'suite'), { recursive: true });
    const list = [];
    for (let c = 0; c < cells; c++) {
      const id = `c${c}`;
      list.push({
        kind: 'code',
        language: 'typescript',
        source: `return await tools.echo({ n: ${c} });`,
        metadata: { id, expect: { value: { match: 'exact', is: { n: c } }, error: { match: 'exact', is: null } } },
      });
      const cassette = {
        version: 1,
        calls: [{ global: 'tools', name: 'echo', args: { n: c }, ok: true, value: { n: c }, durationMs: 0 }],
      };
      fs.writeFileSync(path.join(folder, '.ptc', 'cassettes', 'suite', `${id}.json`), `${JSON.stringify(cassette)}\n`);
    }
    fs.writeFileSync(
      path.join(folder, 'suite.ptcnb'),
      `${JSON.stringify({ version: 1, metadata: {}, cells: list }, null, 2)}\n`,
    );
  }
}

function timed(cli, args, cwd) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [cli, 'test', ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) =>
      resolve({ code, ms: performance.now() - started, last: out.trimEnd().split('\n').pop(), err }),
    );
  });
}

export async function measureTestSuite({ repo, quick = false, log = () => undefined }) {
  const cli = path.join(repo, 'dist', 'cli.mjs');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-bench-test-'));
  const notebooks = quick ? 10 : NOTEBOOKS;
  try {
    writeSuite(dir, notebooks, CELLS);
    const cells = notebooks * CELLS;
    const whole = await timed(cli, ['--jobs', '2'], dir);
    log(
      `  ptc test, ${cells} cells in ${notebooks} notebooks, --jobs 2: ${(whole.ms / 1000).toFixed(1)} s (${whole.last})`,
    );
    const shard = await timed(cli, ['--jobs', '2', '--shard', '1/2'], dir);
    log(`  the same with --shard 1/2: ${(shard.ms / 1000).toFixed(1)} s (${shard.last})`);
    const ok = whole.code === 0 && shard.code === 0;
    return {
      cells,
      notebooks,
      wholeMs: Math.round(whole.ms),
      shardMs: Math.round(shard.ms),
      ...(ok ? {} : { error: `exit ${whole.code}/${shard.code}: ${whole.last} ${whole.err.slice(0, 500)}` }),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
