import { createHash } from 'node:crypto';
import type { CorpusEntry } from './lib/corpus-format.js';
import { registerCorpus } from './lib/corpus-suite.js';

// The hostile corpus on the WebAssembly engines, forced (TypeScript on quickjs, Python on pyodide): every program must
// be contained (no forbidden effect, no survivor, no late handler call, no leak); its expected outcome, written for the
// native engines, is counted in the summary, not required (docs/sandbox.md lists how the engines differ). Controls
// are left out: they switch the OS sandbox off, which a WebAssembly engine never relied on.
// By default a deterministic stratified sample keeps `npm test` affordable (each pyodide run is a fresh interpreter);
// PTC_HOSTILE_WASM=full runs every program.
const SAMPLE_EVERY = 10;
const FAMILY_MIN = 5;

const isControl = (entry: CorpusEntry): boolean => entry.must.length > 0 || entry.options.sandbox === 'off';

// attacks on the embedding itself (a program with its own control, py-embed-*) and programs whose self-reports the host
// witnesses (probe.kernelLook) run in the sample too: the wasm engines are what they are about
const always = (entry: CorpusEntry): boolean =>
  entry.control !== undefined || entry.source.includes('probe.kernelLook');

// the program's family: its name up to the first dash after the language prefix (loop-, fd-, py-net-, …)
const family = (entry: CorpusEntry): string => `${entry.language}:${/^(py-)?[a-z0-9]+/.exec(entry.name)?.[0] ?? ''}`;

// The first program of every family of at least FAMILY_MIN programs, then every SAMPLE_EVERY-th by a stable hash of its
// name: each larger kind of attack is represented (56 of the 345 programs today), and the sample changes only when the
// corpus does.
function sample(entries: readonly CorpusEntry[]): Set<string> {
  const sizes = new Map<string, number>();
  for (const entry of entries) sizes.set(family(entry), (sizes.get(family(entry)) ?? 0) + 1);
  const picked = new Set<string>();
  const seen = new Set<string>();
  for (const entry of entries) {
    const first = !seen.has(family(entry)) && (sizes.get(family(entry)) ?? 0) >= FAMILY_MIN;
    seen.add(family(entry));
    const hash = createHash('sha256').update(entry.name).digest().readUInt32BE(0);
    if (first || hash % SAMPLE_EVERY === 0) picked.add(entry.name);
  }
  return picked;
}

const full = process.env.PTC_HOSTILE_WASM === 'full';

await registerCorpus({
  engine: 'wasm',
  judge: 'contained',
  title: 'hostile corpus (wasm)',
  // every program a fresh interpreter: the full set took over 20 min at load average 20 on 2 cores
  budgetMs: full ? 3_600_000 : 1_200_000,
  select: (entries) => {
    const programs = entries.filter((entry) => !isControl(entry));
    if (full) return programs;
    const picked = sample(programs);
    return programs.filter((entry) => picked.has(entry.name) || always(entry));
  },
});
