import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { BindingsModule } from '../../../runtime/bindings/module-format.js';
import { loadBindingsModule, namespacesFor } from '../../../runtime/bindings/module-loader.js';
import { runTs } from '../../helpers/runtime.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-faults-test-'));
let module: BindingsModule | undefined;
afterAll(async () => {
  await module?.dispose();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function faultsModule(): Promise<BindingsModule> {
  if (module !== undefined) return module;
  const file = path.join(dir, 'faults.bindings.mjs');
  fs.writeFileSync(
    file,
    `export default {
  tools: {
    errorClass: { name: 'ToolCallError', memberNameProperty: 'toolName' },
    functions: {
      slow: { latencyMs: 3_000, mock: async () => 'slow mock', live: async () => 'live' },
      broken: { failWith: 'service unavailable (injected)', mock: async () => 'never seen', live: async () => 'live works' },
      flaky: { failRate: 0.5, mock: async ({ i }) => i },
      steady: { failRate: 0, mock: async ({ i }) => i },
    },
  },
};
`,
  );
  module = await loadBindingsModule(file);
  return module;
}

// 40 calls to one function; the program reports which ones failed and how.
const FLAKY = `const outcomes = await Promise.all(Array.from({ length: 40 }, (_, i) => tools.flaky({ i }).then(() => 'ok', (e) => e.message)));
return outcomes;`;

describe('fault injection (mock handlers)', () => {
  test('latencyMs delays mock calls and not live ones', async () => {
    const m = await faultsModule();
    const [mock, live] = await Promise.all([
      runTs('return await tools.slow();', { bindings: namespacesFor(m, 'mock') }),
      runTs('return await tools.slow();', { bindings: namespacesFor(m, 'live') }),
    ]);
    expect(mock.value).toBe('slow mock');
    expect(mock.calls[0]?.durationMs).toBeGreaterThanOrEqual(2_990);
    expect(live.value).toBe('live');
    // a live call is not delayed: the margin is the whole latency, which no stall of a loaded machine comes near
    expect(live.calls[0]?.durationMs).toBeLessThan(2_990);
  });

  test('failWith fails every mock call with that message, as the namespace error class', async () => {
    const m = await faultsModule();
    const program =
      'try { return await tools.broken(); } catch (e) { return [e instanceof ToolCallError, e.toolName, e.message]; }';
    const [mock, live] = await Promise.all([
      runTs(program, { bindings: namespacesFor(m, 'mock') }),
      runTs(program, { bindings: namespacesFor(m, 'live') }),
    ]);
    expect(mock.value).toEqual([true, 'broken', 'service unavailable (injected)']);
    expect(mock.calls[0]).toMatchObject({ ok: false, message: 'service unavailable (injected)' });
    expect(live.value).toBe('live works');
  });

  test('failRate with a seed fails a repeatable share of calls; rate 0 never fails', async () => {
    const m = await faultsModule();
    const [a, b, c, steady] = await Promise.all([
      runTs(FLAKY, { bindings: namespacesFor(m, 'mock', { seed: 7 }) }),
      runTs(FLAKY, { bindings: namespacesFor(m, 'mock', { seed: 7 }) }),
      runTs(FLAKY, { bindings: namespacesFor(m, 'mock', { seed: 8 }) }),
      runTs(FLAKY.replace('tools.flaky', 'tools.steady'), { bindings: namespacesFor(m, 'mock', { seed: 7 }) }),
    ]);
    const outcomes = a.value as string[];
    const failed = outcomes.filter((o) => o !== 'ok');
    expect(failed.length).toBeGreaterThan(5);
    expect(failed.length).toBeLessThan(35);
    expect(new Set(failed)).toEqual(new Set(['tools.flaky failed (injected fault, failRate 0.5)']));
    // same seed, same calls fail (calls are issued in order, so each draws the same random value)
    expect(b.value).toEqual(outcomes);
    expect(c.value).not.toEqual(outcomes);
    expect((steady.value as string[]).every((o) => o === 'ok')).toBe(true);
  });
});
