// `npm run soak`: 1 000 consecutive mixed runs (both languages, every outcome) in one host process;
// fails if host RSS grows by more than 20 MB, the fd count changes, or anything is left behind.
import { spawnSync } from 'node:child_process';

const env = { ...process.env, PTC_SOAK_RUNS: process.env.PTC_SOAK_RUNS ?? '1000' };
const r = spawnSync(
  'npx',
  ['vitest', 'run', 'test/hostile/soak.test.ts', '--reporter=verbose', ...process.argv.slice(2)],
  { stdio: 'inherit', env },
);
process.exit(r.status ?? 1);
