// Memory probe, run as its own host process per contender (so contenders never share a heap):
// host RSS growth over N consecutive trivial runs, host peak RSS, and (for process contenders) the child's peak RSS.
// Usage: node --expose-gc bench/lib/rss-host.mjs <contender-spec-json> <runs>
import fs from 'node:fs';
import { loadContender } from './contender-factory.mjs';

const [specJson, runsText] = process.argv.slice(2);
const spec = JSON.parse(specJson);
const runs = Number(runsText);
const contender = await loadContender(spec);
const echo = { echo: async (args) => args };
const trivial = { id: 'trivial', program: () => 'return 1' };
const rssMb = () => process.memoryUsage().rss / 1048576;
// VmHWM: this process's own peak. getrusage's maxrss would report the bench process's size at fork time.
const peakMb = () => {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1];
    if (kb !== undefined) return Number(kb) / 1024;
  } catch {
    // not Linux
  }
  return process.resourceUsage().maxRSS / 1024;
};
const settle = async () => {
  for (let i = 0; i < 3; i++) {
    globalThis.gc?.();
    await new Promise((r) => setTimeout(r, 20));
  }
};

const out = { id: spec.id };
try {
  const ready = await contender.init();
  if (!ready.ok) throw new Error(ready.note);
  // warm-up: JIT, module caches, pools reach their steady state
  for (let i = 0; i < 30; i++) await contender.run(trivial, echo);
  await settle();
  const before = rssMb();
  const started = performance.now();
  let failures = 0;
  for (let i = 0; i < runs; i++) {
    const r = await contender.run(trivial, echo);
    if (!r.ok) failures++;
  }
  const elapsed = performance.now() - started;
  await settle();
  out.rssBeforeMb = before;
  out.rssAfterMb = rssMb();
  out.growthMb = out.rssAfterMb - before;
  out.runs = runs;
  out.failures = failures;
  out.msPerRun = elapsed / runs;
  if (contender.childPeakRss !== undefined) out.childPeakRssMb = await contender.childPeakRss();
  out.hostPeakRssMb = peakMb();
  if (spec.drip) {
    // the 25 MB drip's cost in host memory (it arrives as one 25 MB log line)
    const dripProgram =
      spec.language === 'python'
        ? 'import sys\nw = sys.stdout.write\nfor _ in range(25_000_000):\n    w("x")\nreturn 1'
        : "for (let i = 0; i < 25_000_000; i++) process.stdout.write('x');\nreturn 1;";
    await settle();
    const base = rssMb();
    // reset VmHWM (Linux), so the peak read afterwards is the drip's own
    try {
      fs.writeFileSync('/proc/self/clear_refs', '5');
    } catch {
      // not available: the figure then is an upper bound
    }
    const r = await contender.run({ id: 'drip-25mb', program: () => dripProgram }, echo);
    out.dripOk = r.ok && r.logChars === 25_000_000;
    out.dripHostPeakRssMb = peakMb();
    out.dripHostPeakGrowthMb = out.dripHostPeakRssMb - base;
  }
} catch (error) {
  out.error = String(error?.message ?? error);
} finally {
  await contender.dispose();
}
process.stdout.write(`${JSON.stringify(out)}\n`);
process.exit(0);
