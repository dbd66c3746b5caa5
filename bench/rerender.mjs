// `node bench/rerender.mjs`: re-checks the targets of the last run (bench/results.json) against today's target list and
// bench/history.json, and rewrites docs/benchmarks.md and .svg, without measuring anything again.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readHistory, spareStability } from './lib/history.mjs';
import { writeReport } from './lib/report.mjs';
import { evaluateTargets } from './lib/targets.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const report = JSON.parse(fs.readFileSync(path.join(repo, 'bench', 'results.json'), 'utf8'));
const targets = evaluateTargets(report, { stability: spareStability(readHistory()) });
writeReport(repo, { ...report, targets });
process.stdout.write(`re-rendered docs/benchmarks.md from the run of ${report.generatedAt}\n`);
