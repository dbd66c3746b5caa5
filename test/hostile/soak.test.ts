import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { CodeRunRequest } from '../../runtime/api.js';
import { createRuntime } from '../../runtime/index.js';
import type { Language } from '../../runtime/protocol/run-result.js';
import { forceGc } from './lib/gc.js';
import { recordingTools } from './lib/host-guard.js';
import { emptyReport, LeakChecker, openFdCount } from './lib/leaks.js';
import { pythonBackendStatus } from './lib/python-status.js';

// `npm run soak` sets 1 000 runs (scripts/soak.mjs); `npm test` runs a short version.
const RUNS = Number(process.env.PTC_SOAK_RUNS ?? 60);
const WARMUP = 12;
const RSS_BOUND_MB = 20;

const python = await pythonBackendStatus();

type Case = { name: string; expect: string; request: (language: Language) => Omit<CodeRunRequest, 'language'> };

const FD3_GARBAGE: Record<Language, string> = {
  typescript:
    "const fs = await import('node:fs');\nfs.writeSync(3, Buffer.from([0, 0, 0, 2, 0x7b, 0x7d]));\nawait new Promise(() => {});",
  python: "import os\nos.write(3, b'{}\\n')\nimport asyncio\nawait asyncio.sleep(5)",
};

// One of each outcome, in both languages: the soak repeats this mix.
const MIX: Case[] = [
  {
    name: 'success with logs and calls',
    expect: 'success',
    request: (l) => ({
      program:
        l === 'python'
          ? "print('hi')\nreturn await tools.add({'a': 1, 'b': 2})"
          : "console.log('hi');\nreturn await tools.add({ a: 1, b: 2 });",
    }),
  },
  {
    name: 'gather of 200 calls',
    expect: 'success',
    request: (l) => ({
      program:
        l === 'python'
          ? "import asyncio\nreturn sum(await asyncio.gather(*(tools.add({'a': i, 'b': 0}) for i in range(200))))"
          : 'return (await Promise.all(Array.from({ length: 200 }, (_, i) => tools.add({ a: i, b: 0 })))).reduce((s, n) => s + n, 0);',
    }),
  },
  {
    name: 'exception',
    expect: 'exception',
    request: (l) => ({ program: l === 'python' ? "raise ValueError('soak')" : "throw new Error('soak');" }),
  },
  {
    name: 'binding failure caught',
    expect: 'success',
    request: (l) => ({
      program:
        l === 'python'
          ? 'try:\n    await tools.fail({})\nexcept ToolCallError as e:\n    return e.toolName'
          : 'try { await tools.fail({}); } catch (e) { return (e as { toolName: string }).toolName; }',
    }),
  },
  {
    name: 'timeout',
    expect: 'timeout',
    request: (l) => ({ program: l === 'python' ? 'while True:\n    pass' : 'while (true) {}', timeoutMs: 400 }),
  },
  {
    name: 'output-limit',
    expect: 'output-limit',
    request: (l) => ({
      program: l === 'python' ? "while True:\n    print('x' * 100)" : "for (;;) console.log('x'.repeat(100));",
      maxOutputBytes: 20_000,
    }),
  },
  {
    name: 'invalid-output',
    expect: 'invalid-output',
    request: (l) => ({ program: l === 'python' ? "return float('nan')" : 'return Number.NaN;' }),
  },
  {
    name: 'worker-exit',
    expect: 'worker-exit',
    request: (l) => ({ program: l === 'python' ? 'import os\nos._exit(3)' : 'process.exit(3);' }),
  },
  { name: 'protocol', expect: 'protocol', request: (l) => ({ program: FD3_GARBAGE[l] }) },
  {
    name: 'abort',
    expect: 'abort',
    request: (l) => ({
      program: l === 'python' ? 'import asyncio\nawait asyncio.sleep(30)' : 'await new Promise(() => {});',
      signal: AbortSignal.timeout(250),
    }),
  },
];

describe('soak: consecutive runs in one host process', () => {
  const savedTmpdir = process.env.TMPDIR;
  const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-soak-tmp-'));
  afterAll(() => {
    if (savedTmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTmpdir;
    fs.rmSync(tmpRoot, { recursive: true, force: true });
  });

  test(
    `${RUNS} mixed runs (languages and outcomes): RSS growth ≤ ${RSS_BOUND_MB} MB, fd count constant, nothing left behind`,
    async () => {
      if (!python.ready) console.warn(`[soak] Python runs SKIPPED (TypeScript only): ${python.reason}`);
      process.env.TMPDIR = tmpRoot;
      const languages: Language[] = python.ready ? ['typescript', 'python'] : ['typescript'];
      const runtime = createRuntime({ spares: 0 });
      const tools = recordingTools();
      const wrong: string[] = [];
      const kinds: Record<string, number> = {};
      const runOne = async (i: number): Promise<void> => {
        const c = MIX[i % MIX.length] as Case;
        const language = languages[Math.floor(i / MIX.length) % languages.length] as Language;
        const request = c.request(language);
        const r = await runtime.run(
          runtime.resolve({ language, bindings: [tools.namespace], timeoutMs: 5_000, ...request }),
        );
        const kind = r.error?.kind ?? 'success';
        kinds[kind] = (kinds[kind] ?? 0) + 1;
        if (kind !== c.expect)
          wrong.push(
            `#${i} ${language} ${c.name}: expected ${c.expect}, got ${kind} ${r.error?.message.slice(0, 160) ?? ''}`,
          );
      };
      for (let i = 0; i < WARMUP; i++) await runOne(i);
      const checker = new LeakChecker(tmpRoot);
      forceGc();
      const rss0 = process.memoryUsage().rss;
      const heap0 = process.memoryUsage().heapUsed;
      const samples: string[] = [];
      const started = performance.now();
      for (let i = 0; i < RUNS; i++) {
        await runOne(WARMUP + i);
        if ((i + 1) % Math.max(1, Math.floor(RUNS / 5)) === 0) {
          forceGc();
          const m = process.memoryUsage();
          samples.push(
            `${i + 1}: rss ${((m.rss - rss0) / 1e6).toFixed(1)} MB / heap ${((m.heapUsed - heap0) / 1e6).toFixed(1)} MB`,
          );
        }
      }
      forceGc();
      const growthMb = (process.memoryUsage().rss - rss0) / 1e6;
      const leaks = await checker.check();
      await runtime.dispose();
      console.log(
        `[soak] ${RUNS} runs in ${((performance.now() - started) / 1000).toFixed(1)} s (${languages.join('+')}): outcomes ${JSON.stringify(kinds)}; ` +
          `RSS growth ${growthMb.toFixed(1)} MB (samples ${samples.join(', ')}); fds ${openFdCount()} vs baseline ${checker.baselineFds}; leaks ${JSON.stringify(leaks)}`,
      );
      if (!emptyReport(leaks)) checker.reap();
      expect(wrong).toEqual([]);
      expect(leaks).toEqual({ processes: [], extraFds: [], tempDirs: [] });
      expect(growthMb).toBeLessThanOrEqual(RSS_BOUND_MB);
    },
    Math.max(300_000, RUNS * 6_000),
  );
});
