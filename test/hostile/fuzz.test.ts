import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { FrameDecoder } from '../../runtime/channel/frame-codec.js';
import { LineDecoder } from '../../runtime/channel/line-codec.js';
import { LIMITS } from '../../runtime/contract/limits.js';
import { createRuntime } from '../../runtime/index.js';
import type { Runtime } from '../../runtime/api.js';
import type { Language } from '../../runtime/protocol/run-result.js';
import { pool } from './lib/corpus-run.js';
import { fuzzParsers, generateStream, rngFrom } from './lib/fuzz-frames.js';
import { forceGc } from './lib/gc.js';
import { emptyReport, LeakChecker } from './lib/leaks.js';
import { pythonBackendStatus } from './lib/python-status.js';

// Bounded share inside `npm test`; `npm run fuzz` sets the full counts (scripts/fuzz.mjs).
const FRAMES = Number(process.env.PTC_FUZZ_FRAMES ?? 10_000);
const RUNS = Number(process.env.PTC_FUZZ_RUNS ?? 50);
const SEED = Number(process.env.PTC_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
// the fuzz decoders get a small cap so oversize paths are hit often; the memory bound follows from it
const FUZZ_FRAME_CAP = 1024 * 1024;
const MEMORY_BOUND_BYTES = 64 * 1024 * 1024;

const python = await pythonBackendStatus();
const withSeed = (what: string): string => `${what} (seed ${SEED}; replay with PTC_FUZZ_SEED=${SEED})`;

describe('protocol fuzzing: host-side frame parsers of both backends', () => {
  test(`${FRAMES} random and mutated frames never throw out of the parsers and stay within a fixed memory bound`, () => {
    forceGc();
    const base = process.memoryUsage();
    let peak = 0;
    let streams = 0;
    let stats;
    try {
      stats = fuzzParsers(SEED, FRAMES, FUZZ_FRAME_CAP, () => {
        if (++streams % 200 !== 0) return;
        forceGc();
        const now = process.memoryUsage();
        peak = Math.max(peak, now.heapUsed + now.arrayBuffers - (base.heapUsed + base.arrayBuffers));
      });
    } catch (error) {
      throw new Error(withSeed(`the parser pipeline threw: ${(error as Error).stack ?? String(error)}`), {
        cause: error,
      });
    }
    const total = stats.node.frames + stats.python.frames;
    console.log(
      `[fuzz] seed ${SEED}: ${total} frames (node ${stats.node.frames}: delivered ${stats.node.delivered}, parsed ${stats.node.parsed}, rejected ${stats.node.rejected}, decoder errors ${stats.node.errors}, calls dispatched ${stats.node.dispatched}; ` +
        `python ${stats.python.frames}: delivered ${stats.python.delivered}, parsed ${stats.python.parsed}, rejected ${stats.python.rejected}, decoder errors ${stats.python.errors}, calls dispatched ${stats.python.dispatched}); peak retained ${(peak / 1e6).toFixed(1)} MB`,
    );
    expect(total).toBe(FRAMES);
    // most generated frames must reach the decoders' consumers, not vanish behind an early framing error
    expect(stats.node.delivered + stats.python.delivered, withSeed('delivered')).toBeGreaterThan(FRAMES / 2);
    // the generator must really exercise every path: valid frames, rejected frames, decoder failures, dispatched calls
    for (const s of [stats.node, stats.python]) {
      expect(s.parsed, withSeed('parsed')).toBeGreaterThan(0);
      expect(s.rejected, withSeed('rejected')).toBeGreaterThan(0);
      expect(s.errors, withSeed('decoder errors')).toBeGreaterThan(0);
      expect(s.dispatched, withSeed('dispatched')).toBeGreaterThan(0);
    }
    expect(peak, withSeed('retained memory')).toBeLessThan(MEMORY_BOUND_BYTES);
  }, 600_000);

  test('a lying length header at the real frame cap fails before the body is buffered (Node wire)', () => {
    const events: string[] = [];
    const decoder = new FrameDecoder(LIMITS.maxFrameBytes);
    decoder.push(Buffer.from([0xff, 0xff, 0xff, 0xff, 1, 2, 3]), (e) => events.push(e.kind));
    expect(events).toEqual(['error']);
    // a header under the cap only holds what actually arrived, and later bytes are ignored once failed
    const second = new FrameDecoder(LIMITS.maxFrameBytes);
    const seen: string[] = [];
    const header = Buffer.alloc(4);
    header.writeUInt32BE(LIMITS.maxFrameBytes);
    second.push(header, (e) => seen.push(e.kind));
    for (let i = 0; i < 8; i++) second.push(Buffer.alloc(1024 * 1024, 0x61), (e) => seen.push(e.kind));
    expect(seen).toEqual([]);
  });

  test('an endless line without a newline fails at the real frame cap (Python wire), never buffering past it', () => {
    const decoder = new LineDecoder(LIMITS.maxFrameBytes);
    const events: string[] = [];
    const chunk = new Uint8Array(8 * 1024 * 1024).fill(0x61);
    let pushes = 0;
    while (!decoder.failed && pushes < 64) {
      decoder.push(chunk, (e) => events.push(e.kind));
      expect(decoder.buffered).toBeLessThanOrEqual(LIMITS.maxFrameBytes);
      pushes++;
    }
    expect(events).toEqual(['error']);
    expect(decoder.buffered).toBe(0);
  });
});

describe('protocol fuzzing: real child processes writing mutated frames to their control descriptor', () => {
  let runtime: Runtime;
  let tmpRoot: string;
  let checker: LeakChecker;
  const savedTmpdir = process.env.TMPDIR;

  beforeAll(async () => {
    tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-fuzz-tmp-'));
    process.env.TMPDIR = tmpRoot;
    runtime = createRuntime({ spares: 0 });
    await runtime.run(runtime.resolve({ language: 'typescript', program: 'return 1' }));
    if (python.ready) await runtime.run(runtime.resolve({ language: 'python', program: 'return 1' }));
    checker = new LeakChecker(tmpRoot);
  });

  afterAll(async () => {
    await runtime.dispose();
    if (savedTmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTmpdir;
    fs.rmSync(tmpRoot, { recursive: true, force: true });
  });

  const program = (language: Language, b64: string): string =>
    language === 'typescript'
      ? `const fs = await import('node:fs');\nfs.writeSync(3, Buffer.from('${b64}', 'base64'));\nprocess.exit(0);\n`
      : `import os, base64\ndata = base64.b64decode('${b64}')\nwhile data:\n    data = data[os.write(3, data):]\nos._exit(0)\n`;

  test(`${RUNS} runs fed garbage by the real child end as protocol or worker-exit, and leak nothing`, async () => {
    const rng = rngFrom(SEED ^ 0x5eed);
    const languages: Language[] = python.ready ? ['typescript', 'python'] : ['typescript'];
    if (!python.ready) console.warn(`[fuzz] Python child runs SKIPPED: ${python.reason}`);
    const cases = Array.from({ length: RUNS }, (_, i) => {
      const language = languages[i % languages.length] as Language;
      const stream = generateStream(
        rng,
        language === 'typescript' ? 'node' : 'python',
        1 + Math.floor(rng() * 24),
        FUZZ_FRAME_CAP,
        true,
      );
      return { language, b64: Buffer.from(stream.bytes).toString('base64'), frames: stream.frames };
    });
    const outcomes = await pool(cases, 3, async (c) => {
      const r = await runtime.run(
        runtime.resolve({
          language: c.language,
          program: program(c.language, c.b64),
          timeoutMs: 10_000,
          bindings: [{ global: 'tools', functions: { echo: async (v) => v } }],
        }),
      );
      return { c, kind: r.error?.kind ?? 'success', message: r.error?.message ?? '' };
    });
    const byKind: Record<string, number> = {};
    for (const o of outcomes) byKind[`${o.c.language}:${o.kind}`] = (byKind[`${o.c.language}:${o.kind}`] ?? 0) + 1;
    const frames = cases.reduce((n, c) => n + c.frames, 0);
    console.log(
      `[fuzz] seed ${SEED}: ${RUNS} real-child runs, ${frames} frames written to fd 3: ${JSON.stringify(byKind)}`,
    );
    const wrong = outcomes.filter((o) => o.kind !== 'protocol' && o.kind !== 'worker-exit');
    expect(
      wrong.map((o) => ({
        language: o.c.language,
        kind: o.kind,
        message: o.message.slice(0, 200),
        stream: o.c.b64.slice(0, 400),
      })),
      withSeed('unexpected outcomes'),
    ).toEqual([]);
    // both outcomes must actually occur, or the generator is not reaching the protocol checks
    expect(
      outcomes.some((o) => o.kind === 'protocol'),
      withSeed('no run ended as protocol'),
    ).toBe(true);
    const leaks = await checker.check();
    if (!emptyReport(leaks)) checker.reap();
    expect(leaks).toEqual({ processes: [], extraFds: [], tempDirs: [] });
  }, 900_000);
});
