import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Runtime } from '../../../runtime/api.js';
import { createRuntime } from '../../../runtime/index.js';
import { sandboxHost } from '../../../runtime/sandbox/probe.js';
import { loadCorpus } from './corpus-format.js';
import { pool, runEntry, type Verdict } from './corpus-run.js';
import { plantSecrets, removeSecrets, type Secrets } from './fixtures.js';
import { emptyReport, LeakChecker, removeTree, type LeakReport } from './leaks.js';
import { pythonBackendStatus } from './python-status.js';
import { HOST_PYTHON, unmetRequirements } from './requirements.js';
import type { CorpusEntry } from './corpus-format.js';

const here = path.dirname(fileURLToPath(import.meta.url));

export interface CorpusSuiteOptions {
  // `wasm` forces the WebAssembly engines (quickjs, pyodide); otherwise the runtime's default (native), or
  // PTC_TEST_ENGINE's choice
  engine?: 'wasm';
  // which programs run, given the whole corpus (default: all); the rest are registered as skipped
  select?: (entries: readonly CorpusEntry[]) => readonly CorpusEntry[];
  // what a program must meet: its whole header (default), or containment alone (no breach), its expectations counted
  judge?: 'header' | 'contained';
  // the suite's name in its tests and summary lines
  title?: string;
  // how long running every selected program may take (default 20 min)
  budgetMs?: number;
}

// Registers the hostile corpus as a suite: every program run for real in chunks, leaks checked after each chunk.
export async function registerCorpus(options: CorpusSuiteOptions = {}): Promise<void> {
  const title = options.title ?? 'hostile corpus';
  const judge = options.judge ?? 'header';
  // One table: every file under programs/ declares its expected outcome and forbidden effects in its header.
  // A developer machine often lets processes dump core; this suite's children must meet such a host, so the soft core
  // limit is raised (1 MiB: a truncated core still shows) for this worker and its children, and restored afterwards.
  const savedCoreLimit = /^Max core file size\s+(\S+)\s+(\S+)/m.exec(fs.readFileSync('/proc/self/limits', 'utf8'));
  spawnSync('prlimit', ['--pid', String(process.pid), `--core=${1 << 20}:`], { stdio: 'ignore' });
  const entries = loadCorpus(path.join(here, '..', 'programs'));
  const python = await pythonBackendStatus();
  if (!python.ready)
    console.warn(
      `[${title}] SKIPPING ${entries.filter((e) => e.language === 'python').length} Python programs: ${python.reason}`,
    );
  // PTC_HOSTILE_ONLY=<regex> narrows the run while working on the corpus
  const only = process.env.PTC_HOSTILE_ONLY === undefined ? undefined : new RegExp(process.env.PTC_HOSTILE_ONLY);
  const chosen = new Set((options.select?.(entries) ?? entries).map((e) => e.name));
  const selected = (name: string): boolean => chosen.has(name) && (only === undefined || only.test(name));
  // a control whose effect this host cannot produce at all (e.g. cores piped to a crash handler) is skipped, with why
  const unmet = new Map(entries.map((e) => [e.name, unmetRequirements(e.requires)]));
  const runnable = entries.filter(
    (e) => (e.language === 'typescript' || python.ready) && selected(e.name) && unmet.get(e.name)?.length === 0,
  );

  // PTC_HOSTILE_CONCURRENCY=1 makes every chunk one program, so fd and temp-dir checks run after each program too
  const CONCURRENCY = Math.max(1, Number(process.env.PTC_HOSTILE_CONCURRENCY ?? 3));
  // fd and temp-dir checks need a quiet host: after each chunk nothing of ours may be running
  const CHUNK = CONCURRENCY === 1 ? 1 : CONCURRENCY * 2;

  const verdicts = new Map<string, Verdict>();
  const leakReports: { after: string[]; report: LeakReport }[] = [];
  let runtime: Runtime;
  let secrets: Secrets;
  let tmpRoot: string;
  let outsideRoot: string;
  let checker: LeakChecker | undefined;
  const savedTmpdir = process.env.TMPDIR;

  beforeAll(async () => {
    const realTmp = os.tmpdir();
    // a private TMPDIR: the runtime's temp dirs land here, so leftovers are ours alone (other suites share /tmp)
    tmpRoot = fs.mkdtempSync(path.join(realTmp, 'ptc-hostile-tmp-'));
    outsideRoot = fs.mkdtempSync(path.join(realTmp, 'ptc-hostile-outside-'));
    process.env.TMPDIR = tmpRoot;
    secrets = plantSecrets({ hostTmp: realTmp, workspace: process.cwd() });
    // PTC_TEST_ENGINE=wasm runs the corpus on the WebAssembly engines (TypeScript: quickjs)
    const engine = options.engine ?? process.env.PTC_TEST_ENGINE;
    runtime = createRuntime({ spares: 0, ...(engine === 'wasm' || engine === 'auto' ? { defaults: { engine } } : {}) });
    // warm-up: lazily created host resources (sandbox probe, interpreter lookups) are part of the baseline
    await runtime.run(runtime.resolve({ language: 'typescript', program: 'return 1' }));
    if (python.ready) await runtime.run(runtime.resolve({ language: 'python', program: 'return 1' }));
    const cgroups = (await sandboxHost()).cgroups;
    const cgroupParents =
      cgroups === undefined
        ? []
        : [cgroups.memoryParent, ...(cgroups.pidsParent === undefined ? [] : [cgroups.pidsParent])];
    checker = new LeakChecker(tmpRoot, { markers: () => [outsideRoot], sysv: true, cgroupParents });
    const ctx = { runtime, secrets, outsideRoot, tmpRoot, python: HOST_PYTHON };
    for (let i = 0; i < runnable.length; i += CHUNK) {
      const chunk = runnable.slice(i, i + CHUNK);
      for (const verdict of await pool(chunk, CONCURRENCY, (entry) => runEntry(ctx, entry)))
        verdicts.set(verdict.entry.name, verdict);
      const report = await checker.check();
      leakReports.push({ after: chunk.map((e) => e.name), report });
      if (!emptyReport(report)) checker.reap();
    }
    await runtime.dispose();
    leakReports.push({ after: ['(dispose, end of corpus)'], report: await checker.check() });
  }, options.budgetMs ?? 1_200_000);

  afterAll(() => {
    removeSecrets(secrets);
    if (savedTmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTmpdir;
    // whatever a failing case left: deep directory chains, SysV objects, processes
    checker?.reap();
    removeTree(tmpRoot);
    removeTree(outsideRoot);
    if (savedCoreLimit !== null)
      spawnSync('prlimit', ['--pid', String(process.pid), `--core=${savedCoreLimit[1]}:${savedCoreLimit[2]}`], {
        stdio: 'ignore',
      });
    const all = [...verdicts.values()];
    const matched = all.filter((v) => v.problems.length === 0).length;
    const contained = all.filter((v) => v.breaches.length === 0).length;
    const leaked = leakReports.reduce(
      (n, r) =>
        n +
        r.report.processes.length +
        r.report.extraFds.length +
        r.report.tempDirs.length +
        (r.report.sysv?.length ?? 0) +
        (r.report.cgroups?.length ?? 0),
      0,
    );
    const byLang = (lang: string): number => all.filter((v) => v.entry.language === lang).length;
    console.log(
      `[${title}] programs: ${entries.length} (ts ${entries.filter((e) => e.language === 'typescript').length}, py ${entries.filter((e) => e.language === 'python').length}); ` +
        `run: ${all.length} (ts ${byLang('typescript')}, py ${byLang('python')}); contained: ${contained}/${all.length}; expected outcome matched: ${matched}/${all.length}; ` +
        `leak checks: ${leakReports.length}, leaked items: ${leaked}`,
    );
    const kinds: Record<string, number> = {};
    for (const v of all) kinds[v.outcome] = (kinds[v.outcome] ?? 0) + 1;
    console.log(
      `[${title}] outcomes: ${JSON.stringify(kinds)}; controls whose effect was seen: ${all.filter((v) => v.entry.must.length > 0 && v.problems.length === 0).length}/${all.filter((v) => v.entry.must.length > 0).length}`,
    );
    const skipped = entries.filter((e) => (unmet.get(e.name)?.length ?? 0) > 0);
    if (skipped.length > 0)
      console.log(
        `[${title}] skipped, host cannot show the effect: ${skipped.map((e) => `${e.name} (${unmet.get(e.name)?.join('; ')})`).join(', ')}`,
      );
    const breached = all.filter((v) => v.breaches.length > 0);
    if (breached.length > 0)
      console.log(
        `[${title}] not contained: ${breached.map((v) => `${v.entry.name} (${v.breaches.join('; ').slice(0, 400)})`).join(', ')}`,
      );
    const emulated = all.filter((v) => v.emulated.length > 0);
    if (emulated.length > 0)
      console.log(
        `[${title}] kernel-granted self-reports the host witnessed as emulation: ${emulated.map((v) => `${v.entry.name} (${v.emulated.join('; ')})`).join(', ')}`,
      );
    const known = all.filter((v) => v.entry.knownBug !== undefined);
    if (known.length > 0)
      console.log(
        `[${title}] known bugs (expected to fail): ${known.map((v) => `${v.entry.name} (${v.outcome})`).join(', ')}`,
      );
    // PTC_HOSTILE_SHOW=1 prints what each program saw (its value or error), e.g. which escape attempts were refused how
    if (process.env.PTC_HOSTILE_SHOW === '1') {
      const show = (v: Verdict): string => {
        try {
          return String(JSON.stringify(v.result?.error?.message ?? v.result?.value)).slice(0, 600);
        } catch {
          return '(not printable as JSON)';
        }
      };
      for (const v of all) console.log(`[${title}] ${v.entry.name} ${v.outcome} ${v.ms}ms: ${show(v)}`);
    }
    const slow = all.sort((a, b) => b.ms - a.ms).slice(0, 5);
    console.log(`[${title}] slowest: ${slow.map((v) => `${v.entry.name} ${v.ms}ms`).join(', ')}`);
  });

  describe(title, () => {
    test('the corpus is big and balanced enough to mean something', () => {
      const ts = entries.filter((e) => e.language === 'typescript').length;
      const py = entries.length - ts;
      expect(entries.length).toBeGreaterThanOrEqual(390);
      expect(Math.min(ts, py)).toBeGreaterThanOrEqual(190);
      // control programs (sandbox off) prove the effect detectors can see an effect at all
      expect(entries.filter((e) => e.must.length > 0).length).toBeGreaterThanOrEqual(65);
      expect(runnable.length).toBeGreaterThan(0);
    });

    for (const entry of entries) {
      const skip =
        (entry.language === 'python' && !python.ready) ||
        !selected(entry.name) ||
        (unmet.get(entry.name)?.length ?? 0) > 0;
      // a known gap is registered as failing: the day the runtime is fixed this flips and the header must go
      const register = skip ? test.skip : entry.knownBug !== undefined && judge === 'header' ? test.fails : test;
      register(`${entry.name}: ${entry.about}${entry.knownBug === undefined ? '' : ' [KNOWN BUG]'}`, () => {
        const verdict = verdicts.get(entry.name);
        expect(verdict, 'the program was not run').toBeDefined();
        expect(judge === 'contained' ? verdict?.breaches : verdict?.problems).toEqual([]);
      });
    }

    test('nothing leaked after any chunk of programs or at the end (processes, fds, temp dirs, SysV objects, cgroups)', () => {
      const leaks = leakReports.filter((r) => !emptyReport(r.report));
      expect(leaks).toEqual([]);
      expect(leakReports.length).toBeGreaterThan(runnable.length / CHUNK);
    });
  });
}
