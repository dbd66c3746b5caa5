import { describe, expect, test } from 'vitest';
import type { Spare } from '../../../runtime/process/spare.js';
import { SparePool, type SpareKey } from '../../../runtime/engine/spare-pool.js';

// The pool's policy on its own, with scripted spares whose start-up the test controls; real processes are
// covered in spare-processes.test.ts.
class ScriptedSpare implements Spare {
  static started: ScriptedSpare[] = [];
  readonly pid = undefined;
  readonly ready: Promise<boolean>;
  discarded = false;
  dead = false;
  #resolve: (ok: boolean) => void = () => undefined;

  constructor(readonly config: string) {
    this.ready = new Promise((resolve) => (this.#resolve = resolve));
    ScriptedSpare.started.push(this);
  }

  up(ok = true): void {
    this.#resolve(ok);
  }

  alive(): boolean {
    return !this.dead && !this.discarded;
  }

  async stop(): Promise<void> {
    this.#resolve(false);
  }

  async discard(): Promise<void> {
    this.discarded = true;
    await this.stop();
  }
}

const key = (config: string): SpareKey => ({ language: 'typescript', config });
const startFor = (config: string) => () => new ScriptedSpare(config);
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('SparePool policy', () => {
  test('take hands over a ready spare once; refill starts its replacement on a later turn', async () => {
    ScriptedSpare.started = [];
    const pool = new SparePool<ScriptedSpare>(1);
    const warming = pool.warm(key('a'), startFor('a'));
    ScriptedSpare.started[0]?.up();
    expect(await warming).toBe(true);
    const first = await pool.take(key('a'));
    expect(first).toBe(ScriptedSpare.started[0]);
    // nothing left, and nothing started until the run asks for a refill
    expect(await pool.take(key('a'))).toBeUndefined();
    expect(ScriptedSpare.started).toHaveLength(1);
    pool.refill(key('a'), startFor('a'));
    expect(ScriptedSpare.started).toHaveLength(1);
    await turn();
    expect(ScriptedSpare.started).toHaveLength(2);
    expect(pool.stats()).toMatchObject({ starting: 1, taken: 1, cold: 1 });
    await pool.dispose();
    expect(ScriptedSpare.started[1]?.discarded).toBe(true);
  });

  test('a spare still starting is awaited by take; one that fails to start is discarded, not retried', async () => {
    ScriptedSpare.started = [];
    const pool = new SparePool<ScriptedSpare>(1);
    void pool.warm(key('a'), startFor('a'));
    const taking = pool.take(key('a'));
    ScriptedSpare.started[0]?.up();
    expect(await taking).toBe(ScriptedSpare.started[0]);

    void pool.warm(key('a'), startFor('a'));
    ScriptedSpare.started[1]?.up(false);
    expect(await pool.take(key('a'))).toBeUndefined();
    expect(ScriptedSpare.started[1]?.discarded).toBe(true);
    await turn();
    expect(ScriptedSpare.started).toHaveLength(2);
    await pool.dispose();
  });

  test('an abort while a spare is still starting returns at once and leaves the spare for the next run', async () => {
    ScriptedSpare.started = [];
    const pool = new SparePool<ScriptedSpare>(1);
    void pool.warm(key('a'), startFor('a'));
    const controller = new AbortController();
    const taking = pool.take(key('a'), controller.signal);
    controller.abort();
    expect(await taking).toBeUndefined();
    expect(ScriptedSpare.started[0]?.discarded).toBe(false);
    ScriptedSpare.started[0]?.up();
    expect(await pool.take(key('a'))).toBe(ScriptedSpare.started[0]);
    expect(ScriptedSpare.started).toHaveLength(1);
    await pool.dispose();
  });

  test('a spare that died while idle is discarded and the run starts cold', async () => {
    ScriptedSpare.started = [];
    const pool = new SparePool<ScriptedSpare>(1);
    const warming = pool.warm(key('a'), startFor('a'));
    ScriptedSpare.started[0]?.up();
    await warming;
    (ScriptedSpare.started[0] as ScriptedSpare).dead = true;
    expect(await pool.take(key('a'))).toBeUndefined();
    expect(ScriptedSpare.started[0]?.discarded).toBe(true);
    await pool.dispose();
  });

  test('other launch settings retire the language’s spares; other languages keep theirs', async () => {
    ScriptedSpare.started = [];
    const pool = new SparePool<ScriptedSpare>(1);
    const a = pool.warm(key('a'), startFor('a'));
    const py = pool.warm({ language: 'python', config: 'a' }, startFor('py'));
    for (const s of ScriptedSpare.started) s.up();
    await Promise.all([a, py]);
    expect(await pool.take(key('b'))).toBeUndefined();
    expect(ScriptedSpare.started[0]?.discarded).toBe(true);
    expect(ScriptedSpare.started[1]?.discarded).toBe(false);
    // a refill for the retired settings is ignored
    pool.refill(key('a'), startFor('a'));
    await turn();
    expect(ScriptedSpare.started).toHaveLength(2);
    expect(await pool.take({ language: 'python', config: 'a' })).toBe(ScriptedSpare.started[1]);
    await pool.dispose();
  });

  test('size 0 never starts anything; dispose discards starting spares and later calls start nothing', async () => {
    ScriptedSpare.started = [];
    const off = new SparePool<ScriptedSpare>(0);
    expect(await off.warm(key('a'), startFor('a'))).toBe(false);
    off.refill(key('a'), startFor('a'));
    await turn();
    expect(ScriptedSpare.started).toHaveLength(0);

    const pool = new SparePool<ScriptedSpare>(2);
    const warming = pool.warm(key('a'), startFor('a'));
    expect(ScriptedSpare.started).toHaveLength(2);
    await pool.dispose();
    expect(await warming).toBe(false);
    expect(ScriptedSpare.started.every((s) => s.discarded)).toBe(true);
    expect(await pool.take(key('a'))).toBeUndefined();
    pool.refill(key('a'), startFor('a'));
    await turn();
    expect(ScriptedSpare.started).toHaveLength(2);
    expect(() => new SparePool(-1)).toThrow(TypeError);
  });
});
