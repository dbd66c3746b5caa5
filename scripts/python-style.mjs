// Python style for the repository's own Python (the CPython runner, test fixtures, scripts): ruff's formatter and
// linter, from its WebAssembly build on npm (PyPI is not reachable here, and CI needs no Python packages for it).
// `--check`: report lint findings and unformatted files, exit 1 if any; `--write`: format in place (lint is reported).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PositionEncoding, Workspace } from '@astral-sh/ruff-wasm-nodejs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// the runner must run on the oldest CPython PTC Playground accepts (runtime/python/python-executable.ts)
const SETTINGS = {
  'line-length': 120,
  'target-version': 'py310',
  lint: { select: ['E4', 'E501', 'E7', 'E9', 'F', 'B'] },
};
// cell programs (hostile corpus, examples) are not modules: a top-level `return` is their contract
const ROOTS = ['python', 'scripts', 'test'];
const SKIP = [/^test\/hostile\/programs\//, /(^|\/)node_modules\//, /(^|\/)\.vscode-test\//];

function pythonFiles(dir) {
  const out = [];
  for (const entry of fs.readdirSync(path.join(repo, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (SKIP.some((re) => re.test(rel))) continue;
    if (entry.isDirectory()) out.push(...pythonFiles(rel));
    else if (entry.name.endsWith('.py')) out.push(rel);
  }
  return out;
}

const write = process.argv.includes('--write');
const workspace = new Workspace(SETTINGS, PositionEncoding.Utf16);
let problems = 0;
for (const file of ROOTS.filter((root) => fs.existsSync(path.join(repo, root))).flatMap(pythonFiles)) {
  const text = fs.readFileSync(path.join(repo, file), 'utf8');
  for (const d of workspace.check(text)) {
    problems++;
    console.error(`${file}:${d.start_location.row}:${d.start_location.column}: ${d.code ?? 'syntax'} ${d.message}`);
  }
  const formatted = workspace.format(text);
  if (formatted === text) continue;
  if (write) fs.writeFileSync(path.join(repo, file), formatted);
  else {
    problems++;
    console.error(`${file}: not formatted (npm run format)`);
  }
}
if (problems > 0) process.exit(1);
