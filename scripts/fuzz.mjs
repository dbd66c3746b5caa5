// `npm run fuzz`: the full protocol fuzz (100 000 frames through both backends' host parsers, 300 real-child runs).
// The same suite runs a bounded share inside `npm test`. PTC_FUZZ_SEED=<n> replays a failing seed.
import { spawnSync } from 'node:child_process';

const env = {
  ...process.env,
  PTC_FUZZ_FRAMES: process.env.PTC_FUZZ_FRAMES ?? '100000',
  PTC_FUZZ_RUNS: process.env.PTC_FUZZ_RUNS ?? '300',
};
const r = spawnSync(
  'npx',
  ['vitest', 'run', 'test/hostile/fuzz.test.ts', '--reporter=verbose', ...process.argv.slice(2)],
  { stdio: 'inherit', env },
);
process.exit(r.status ?? 1);
