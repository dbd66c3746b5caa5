import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/*.vscode.test.ts'],
    // process-heavy suites: two cores, so keep parallelism modest and timeouts generous. Two suites at once (issue 33)
    // made tests that start several processes (ptc, replay, huge notebooks) take 60-70 s at load 15-20; a test that
    // really hangs is still ended, and the harnesses' own kill timers (150 s) name what hung first
    maxWorkers: 2,
    testTimeout: 180_000,
    hookTimeout: 120_000,
    globalSetup: ['test/global-setup.ts'],
  },
});
