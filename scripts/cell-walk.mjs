// Measures issue 25's "one cell's walk": how many of our source files one run crosses, per process.
// - the front end (the `ptc` CLI, which drives the same notebook-session path as the extension host): files with a
//   function that ran while the process lived, from V8's own coverage mapped back through the bundle's source map
//   (module set-up included, node_modules excluded);
// - the bindings host likewise when its coverage was written, else as the child;
// - the program child: every source file of ours bundled into its single-purpose executable
//   (an upper bound: esbuild's metafile), since its environment is scrubbed and coverage cannot leave the sandbox;
// - the renderer (the webview that draws the result): every file of ours in its browser bundle, likewise an upper
// bound.
// Usage: node scripts/cell-walk.mjs [program] [bindings]  (default: examples/programs/cities.ts with its tools)
import { mkdtemp, readdir, readFile, rm, cp } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { SourceMapConsumer } from 'source-map-js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const program = process.argv[2] ?? 'examples/programs/cities.ts';
const bindings = process.argv[3] ?? 'examples/programs/tools.bindings.mjs';
const ours = (source) => !source.includes('node_modules') && /^(runtime|python|extension|webview)\//.test(source);

async function bundle(entry, outfile, format, platform = 'node') {
  const result = await build({
    entryPoints: [path.join(root, entry)],
    outfile,
    bundle: true,
    platform,
    loader: { '.css': 'text' },
    target: 'node20',
    format,
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'error',
    external: ['amaro'],
    banner:
      format === 'esm'
        ? {
            js: "import { createRequire as __ptcCreateRequire } from 'node:module'; const require = __ptcCreateRequire(import.meta.url);",
          }
        : undefined,
  });
  return Object.keys(result.metafile.inputs)
    .map((input) => path.relative(root, path.resolve(root, input)))
    .filter(ours);
}

// Source files holding at least one function V8 saw run, for one script of the coverage output.
async function filesRun(coverageDir, script) {
  const map = new SourceMapConsumer(JSON.parse(await readFile(`${script}.map`, 'utf8')));
  const text = await readFile(script, 'utf8');
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lineStarts.push(i + 1);
  const position = (offset) => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - lineStarts[lo] };
  };
  const url = pathToFileURL(script).href;
  const files = new Set();
  for (const name of await readdir(coverageDir)) {
    const { result } = JSON.parse(await readFile(path.join(coverageDir, name), 'utf8'));
    for (const entry of result.filter((r) => r.url === url))
      for (const fn of entry.functions) {
        const range = fn.ranges[0];
        if (!range || range.count === 0 || fn.functionName === '') continue;
        const at = map.originalPositionFor(position(range.startOffset + 1));
        if (at.source) files.add(path.relative(root, path.resolve(path.dirname(script), at.source)));
      }
  }
  return [...files].filter(ours).sort();
}

const tmp = await mkdtemp(path.join(os.tmpdir(), 'ptc-cell-walk-'));
try {
  await cp(path.join(root, 'dist'), path.join(tmp, 'dist'), { recursive: true });
  const cli = path.join(tmp, 'dist', 'cli.mjs');
  await bundle('runtime/cli/main.ts', cli, 'esm');
  const child = await bundle(
    'runtime/typescript/child/bootstrap.ts',
    path.join(tmp, 'dist/runtime/node-child.cjs'),
    'cjs',
  );
  const host = await bundle(
    'runtime/bindings-host/host/main.ts',
    path.join(tmp, 'dist/runtime/bindings-host.mjs'),
    'esm',
  );
  const renderer = await bundle('webview/renderer/index.ts', path.join(tmp, 'renderer.js'), 'esm', 'browser');
  // one command under V8 coverage: the files of ours whose functions ran in the front end and in the bindings host
  const measured = async (name, args, okCodes) => {
    const coverage = path.join(tmp, `coverage-${name}`);
    const run = spawnSync(process.execPath, [cli, ...args], {
      cwd: root,
      env: { ...process.env, NODE_V8_COVERAGE: coverage },
      encoding: 'utf8',
    });
    if (!okCodes.includes(run.status)) throw new Error(`ptc ${name} exited ${run.status}: ${run.stderr || run.stdout}`);
    const hostScript = path.join(tmp, 'dist/runtime/bindings-host.mjs');
    return { front: await filesRun(coverage, cli), host: await filesRun(coverage, hostScript) };
  };
  const { front, host: hostRun } = await measured('run', ['run', program, '--bindings', bindings, '--json'], [0]);
  // issue 25's other measure: one notebook under `ptc test` (its cells fail on purpose where the notebook says so)
  // (on a copy of examples/: a first run writes the expectations it checks against later)
  const notebook = process.env.PTC_CELL_WALK_NOTEBOOK ?? 'examples/tour.ptcnb';
  await cp(path.join(root, 'examples'), path.join(tmp, 'examples'), { recursive: true });
  const suite = await measured('test', ['test', path.join(tmp, notebook), '--json'], [0, 1]);
  const python = (await readdir(path.join(root, 'python'), { recursive: true })).filter((f) => f.endsWith('.py'));
  const rows = [
    ['front end (ptc CLI, functions that ran)', front],
    ['program child (Node, bundled)', child],
    // the bindings host is not sandboxed, so its coverage is there when the environment reached it
    hostRun.length > 0 ? ['bindings host (functions that ran)', hostRun] : ['bindings host (bundled)', host],
    ['renderer (webview, bundled)', renderer],
    [`ptc test ${notebook}: front end (functions that ran)`, suite.front],
    [`ptc test ${notebook}: bindings host (functions that ran)`, suite.host],
    [`ptc test ${notebook}: every file of ours across both`, [...new Set([...suite.front, ...suite.host])].sort()],
  ];
  for (const [name, files] of rows) {
    console.log(`${String(files.length).padStart(4)}  ${name}`);
    if (process.env.PTC_CELL_WALK_LIST === '1') for (const f of files) console.log(`        ${f}`);
  }
  console.log(`${String(python.length).padStart(4)}  program child (CPython, every file of python/)`);
} finally {
  await rm(tmp, { recursive: true, force: true });
}
