// The spare-ready figures of past full runs (bench/history.json), so one run can say whether its figures are stable:
// issue 31 asks for the p50 of the spare-ready rows within ±20 % across three consecutive full runs.
// `node bench/lib/history.mjs add <results.json>…` records reports written before this file existed.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const HISTORY_FILE = path.join(here, '..', 'history.json');
// enough to see a trend; the target looks at the last three
const KEEP = 12;
export const STABLE_RUNS = 3;
export const STABLE_SPREAD = 0.2;
export const SPARE_ROWS = { typescript: 'ptc-ts-sandbox-spare', python: 'ptc-py-sandbox-spare' };

// What a report contributes: when and where it ran, and the spare-ready p50 per language.
export function historyEntry(report) {
  const trivial = report.workloads?.trivial?.rows ?? [];
  const spareP50 = {};
  for (const [language, contender] of Object.entries(SPARE_ROWS)) {
    const p50 = trivial.find((r) => r.contender === contender)?.wallMs?.p50;
    if (typeof p50 === 'number') spareP50[language] = p50;
  }
  return {
    generatedAt: report.generatedAt,
    commit: report.commit,
    loadAvgAtEnd: report.machine?.loadAvgAtEnd,
    spareP50,
  };
}

export function readHistory(file = HISTORY_FILE) {
  if (!fs.existsSync(file)) return [];
  const parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  if (!Array.isArray(parsed)) throw new Error(`${file} is not a list of runs`);
  return parsed;
}

// Adds full runs (quick runs measure fewer rounds and are not comparable), oldest first, one entry per report.
export function recordRuns(reports, file = HISTORY_FILE) {
  const history = readHistory(file);
  for (const report of reports) {
    if (report.mode !== 'full') continue;
    if (history.some((h) => h.generatedAt === report.generatedAt)) continue;
    history.push(historyEntry(report));
  }
  history.sort((a, b) => a.generatedAt.localeCompare(b.generatedAt));
  const kept = history.slice(-KEEP);
  fs.writeFileSync(file, `${JSON.stringify(kept, null, 2)}\n`);
  return kept;
}

// Runs of one measured code (the same commit, in a row), newest first: the spread of three runs of different code
// would measure the change, not the noise.
function sameCodeGroups(history) {
  const groups = [];
  for (const entry of [...history].reverse()) {
    const group = groups.at(-1);
    if (group !== undefined && group[0].commit === entry.commit) group.unshift(entry);
    else groups.push([entry]);
  }
  return groups;
}

// Per language: the p50s of the last three full runs of the newest code measured three times in a row, and the
// largest distance from their median, as a fraction.
export function spareStability(history) {
  const groups = sameCodeGroups(history);
  const last = (groups.find((g) => g.length >= STABLE_RUNS) ?? groups[0] ?? []).slice(-STABLE_RUNS);
  const out = {};
  for (const language of Object.keys(SPARE_ROWS)) {
    const values = last.map((h) => h.spareP50?.[language]).filter((v) => typeof v === 'number');
    if (values.length < STABLE_RUNS) {
      out[language] = { runs: values.length, values, commit: last[0]?.commit };
      continue;
    }
    const median = [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const spread = Math.max(...values.map((v) => Math.abs(v / median - 1)));
    const loads = last.map((h) => h.loadAvgAtEnd?.[0]);
    out[language] = { runs: values.length, values, median, spread, loads, commit: last[0].commit };
  }
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [command, ...files] = process.argv.slice(2);
  if (command !== 'add' || files.length === 0) {
    process.stderr.write('usage: node bench/lib/history.mjs add <results.json>…\n');
    process.exit(2);
  }
  const kept = recordRuns(files.map((f) => JSON.parse(fs.readFileSync(f, 'utf8'))));
  process.stdout.write(`${HISTORY_FILE}: ${kept.length} full run(s)\n`);
}
