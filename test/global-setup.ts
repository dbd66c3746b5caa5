import { execFileSync } from 'node:child_process';

// Tests run the built child bootstraps and bundles, so build once before any suite starts.
export default function setup(): void {
  if (process.env.PTC_SKIP_BUILD === '1') return;
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
}
