// Phase breakdown of a spare-ready trivial run (issue 31): where the milliseconds between `run()` and its result go,
// from the runtime's own phase marks (runtime/engine/phase-marks.ts, a diagnostics channel nobody pays for unless
// subscribed). Measured in the bench process, languages interleaved, each run started once its spare is ready.
import diagnostics_channel from 'node:diagnostics_channel';
import { summarize, round, sleep } from './stats.mjs';

const CHANNEL = 'ptc-playground:run-phase';

// Each row: a phase, the mark that opens it and the one that closes it (both on the host's clock).
export const PHASES = [
  { id: 'checks', label: 'request checks (temp dir, sandbox plan)', from: 'start', to: 'planned' },
  { id: 'strip', label: 'type stripping (TypeScript)', from: 'planned', to: 'stripped' },
  { id: 'hand-over', label: 'hand-over (spare taken, program sent)', from: ['stripped', 'planned'], to: 'handed-over' },
  {
    id: 'program',
    label: 'program (child compiles, runs, encodes; host decodes the result)',
    from: 'handed-over',
    to: 'settled',
  },
  { id: 'exit', label: 'teardown on the result path: kill, pipes closed', from: 'settled', to: 'exited' },
  { id: 'discard', label: 'result path after the exit (pipes drained, stop confirmed)', from: 'exited', to: 'result' },
  { id: 'total', label: 'whole run (run() to result)', from: 'start', to: 'result' },
  { id: 'after', label: 'after the result: private dir and cgroup removed', from: 'result', to: 'discarded' },
  { id: 'refill', label: 'refill: replacement spare started → ready', from: 'refill-started', to: 'refill-ready' },
];

function durations(marks) {
  const at = new Map();
  for (const m of marks) if (!at.has(m.phase)) at.set(m.phase, m.at);
  const out = {};
  for (const p of PHASES) {
    const from = (Array.isArray(p.from) ? p.from : [p.from]).map((f) => at.get(f)).find((v) => v !== undefined);
    const to = at.get(p.to);
    // a teardown that ended within the result's wait is on the result path: nothing is left after it
    if (from !== undefined && to !== undefined) out[p.id] = p.id === 'after' ? Math.max(0, to - from) : to - from;
  }
  return out;
}

// `runtimes`: [{ language, runtime, request }] with spares: 1. Returns { [language]: { [phase]: {p50, p95, n} } }.
export async function measurePhases({ contenders, rounds, log = () => undefined }) {
  const timelines = new Map();
  const onMark = (mark) => {
    let list = timelines.get(mark.run);
    if (list === undefined) timelines.set(mark.run, (list = []));
    list.push(mark);
  };
  diagnostics_channel.subscribe(CHANNEL, onMark);
  const samples = Object.fromEntries(contenders.map((c) => [c.language, []]));
  try {
    for (let pass = 0; pass <= rounds; pass++) {
      for (const c of pass % 2 === 0 ? contenders : [...contenders].reverse()) {
        await c.runtime.warm(c.runtime.resolve(c.request));
        timelines.clear();
        const result = await c.runtime.run(c.runtime.resolve(c.request));
        // the teardown and the replacement spare this run started (once it had its result) end before the next run
        const reached = (phase) => [...timelines.values()].some((l) => l.some((m) => m.phase === phase));
        await waitFor(() => reached('discarded') && reached('refill-ready'));
        await c.runtime.warm(c.runtime.resolve(c.request));
        if (pass === 0 || result.error !== undefined) continue;
        const marks = [...timelines.values()].flat();
        samples[c.language].push(durations(marks));
      }
      await sleep(20);
    }
  } finally {
    diagnostics_channel.unsubscribe(CHANNEL, onMark);
  }
  const out = {};
  for (const [language, list] of Object.entries(samples)) {
    out[language] = {};
    for (const p of PHASES) {
      const values = list.map((d) => d[p.id]).filter((v) => v !== undefined);
      if (values.length === 0) continue;
      const s = summarize(values);
      out[language][p.id] = { n: s.n, p50: round(s.p50, 2), p95: round(s.p95, 2) };
    }
    const t = out[language].total;
    log(
      `  ${language.padEnd(10)} ${PHASES.filter((p) => out[language][p.id] !== undefined && p.id !== 'total')
        .map((p) => `${p.id} ${out[language][p.id].p50}`)
        .join(', ')}; whole run p50 ${t?.p50 ?? '–'} ms`,
    );
  }
  return out;
}

async function waitFor(condition, timeoutMs = 10_000) {
  const until = performance.now() + timeoutMs;
  while (!condition() && performance.now() < until) await sleep(5);
}
