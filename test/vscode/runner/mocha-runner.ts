// Extension-host entry (`extensionTestsPath`): runs the bundled *.vscode.test.ts files with mocha inside VS Code.
// Both launchers load it (code-server's smoke-test payload and @vscode/test-electron); results go to
// results.json beside this file and, one JSON line per event, to the console the launcher captures.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Mocha from 'mocha';
import { z } from 'zod';

export const REPORT_PREFIX = '[ptc-e2e] ';

const ManifestSchema = z.object({
  pass: z.string(),
  files: z.array(z.string()).min(1),
  timeoutMs: z.number().int().positive(),
  grep: z.string().optional(),
});

type TestEvent =
  | { event: 'start'; pass: string; total: number }
  | { event: 'pass'; title: string; durationMs: number }
  | { event: 'fail'; title: string; durationMs: number; error: string }
  | { event: 'pending'; title: string }
  | { event: 'end'; passed: number; failed: number; pending: number; durationMs: number };

function emit(event: TestEvent, events: TestEvent[]): void {
  events.push(event);
  // console.log is what reaches the launcher (codeAutomationLog in code-server, stdout under test-electron)
  console.log(`${REPORT_PREFIX}${JSON.stringify(event)}`);
}

function describeError(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return String(error);
}

// Mocha reporter that turns runner events into TestEvents.
function makeReporter(pass: string, events: TestEvent[]) {
  return class JsonLinesReporter extends Mocha.reporters.Base {
    constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
      super(runner, options);
      const started = Date.now();
      const counts = { passed: 0, failed: 0, pending: 0 };
      const { EVENT_RUN_BEGIN, EVENT_TEST_PASS, EVENT_TEST_FAIL, EVENT_TEST_PENDING, EVENT_RUN_END } =
        Mocha.Runner.constants;
      runner.once(EVENT_RUN_BEGIN, () => emit({ event: 'start', pass, total: runner.total }, events));
      runner.on(EVENT_TEST_PASS, (test: Mocha.Test) => {
        counts.passed++;
        emit({ event: 'pass', title: test.fullTitle(), durationMs: test.duration ?? 0 }, events);
      });
      runner.on(EVENT_TEST_FAIL, (test: Mocha.Test, error: unknown) => {
        counts.failed++;
        emit(
          { event: 'fail', title: test.fullTitle(), durationMs: test.duration ?? 0, error: describeError(error) },
          events,
        );
      });
      runner.on(EVENT_TEST_PENDING, (test: Mocha.Test) => {
        counts.pending++;
        emit({ event: 'pending', title: test.fullTitle() }, events);
      });
      runner.once(EVENT_RUN_END, () => emit({ event: 'end', ...counts, durationMs: Date.now() - started }, events));
    }
  };
}

// Called by the extension host once the extension under development is loaded; rejects when any test failed.
export async function run(): Promise<void> {
  const manifest = ManifestSchema.parse(JSON.parse(readFileSync(path.join(__dirname, 'manifest.json'), 'utf8')));
  const events: TestEvent[] = [];
  const mocha = new Mocha({
    ui: 'tdd',
    timeout: manifest.timeoutMs,
    color: false,
    reporter: makeReporter(manifest.pass, events),
    ...(manifest.grep ? { grep: manifest.grep } : {}),
  });
  for (const file of manifest.files) mocha.addFile(path.join(__dirname, file));
  let failures: number;
  try {
    failures = await new Promise<number>((resolve) => mocha.run(resolve));
  } catch (error) {
    // a test file that throws while loading never reaches the reporter
    emit({ event: 'fail', title: 'loading the test files', durationMs: 0, error: describeError(error) }, events);
    failures = 1;
  }
  writeFileSync(path.join(__dirname, 'results.json'), `${JSON.stringify(events, null, 2)}\n`);
  if (failures > 0) throw new Error(`${failures} extension-host test(s) failed`);
}
