// The house as docs/architecture.md draws it, checked from the imports themselves: the runtime never imports VS Code,
// front ends reach the runtime only through its public surface, the runtime's floors only look down, and no module
// imports itself back through others. A new arrow upward fails here with the file that drew it.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// The runtime's floors, lowest first: a module may import its own floor and the ones below, never one above.
const FLOORS: readonly (readonly string[])[] = [
  // the vocabulary: wire and result shapes, JSON, output caps, files, the request contract
  ['protocol', 'json', 'output', 'files', 'types', 'assets', 'contract', 'api.ts'],
  // the operating system: child processes, the sandbox, framed channels
  ['process', 'sandbox', 'channel'],
  // binding namespaces: module formats, handlers, MCP clients
  ['bindings'],
  // one run of one program: supervision, spares, deadlines
  ['engine'],
  // the language backends: Node and CPython children, and the WebAssembly engines run inside a child
  ['typescript', 'python', 'wasm'],
  // the runtime object; the bindings host process; record and replay
  ['create-runtime.ts', 'bindings-host', 'replay'],
  // the .ptcnb file format
  ['notebook'],
  // sessions: a bindings host leased per run, plans, notebooks run cell by cell
  ['session'],
  // notebooks as tests; SDK text for models
  ['testing', 'sdk'],
  // transcripts in, models and evaluations out
  ['import', 'model', 'eval'],
];

// Arrows that still run upward, each with why (none today); every entry must still be needed (the list cannot rot).
const KNOWN_UPWARD: readonly { from: string; to: string; why: string }[] = [];

interface Edge {
  from: string;
  to: string;
  typeOnly: boolean;
}

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(repo, dir), { withFileTypes: true })) {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sources(rel));
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(rel);
  }
  return out;
}

const IMPORT =
  /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function importsOf(file: string): { specifier: string; typeOnly: boolean }[] {
  const text = fs.readFileSync(path.join(repo, file), 'utf8');
  const out: { specifier: string; typeOnly: boolean }[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const specifier = match[3] ?? match[4];
    if (specifier !== undefined) out.push({ specifier, typeOnly: match[2] !== undefined });
  }
  return out;
}

// Relative imports resolved to repository paths (`.js` specifiers name `.ts` sources).
function edgesOf(files: readonly string[]): Edge[] {
  const edges: Edge[] = [];
  for (const file of files) {
    for (const { specifier, typeOnly } of importsOf(file)) {
      if (!specifier.startsWith('.')) continue;
      const to = path.join(path.dirname(file), specifier).replace(/\.js$/, '.ts');
      edges.push({ from: file, to, typeOnly });
    }
  }
  return edges;
}

const runtimeFiles = sources('runtime');
const core = runtimeFiles.filter(
  (file) => !file.startsWith('runtime/cli/') && file !== 'runtime/index.ts' && file !== 'runtime/browser.ts',
);

function floorOf(file: string): number {
  const rel = path.relative('runtime', file);
  const place = rel.includes(path.sep) ? (rel.split(path.sep)[0] as string) : rel;
  const floor = FLOORS.findIndex((names) => names.includes(place));
  if (floor < 0)
    throw new Error(`${file} is on no floor: add runtime/${place} to FLOORS (and to docs/architecture.md)`);
  return floor;
}

describe('the house', () => {
  test('the runtime never imports VS Code', () => {
    const offenders = runtimeFiles.filter((file) => importsOf(file).some((i) => i.specifier === 'vscode'));
    expect(offenders).toEqual([]);
  });

  test('front ends reach the runtime only through its public surface', () => {
    const fronts = [...sources('extension'), ...runtimeFiles.filter((file) => file.startsWith('runtime/cli/'))];
    const offenders = edgesOf(fronts)
      .filter((e) => e.to.startsWith('runtime/') && !e.to.startsWith('runtime/cli/') && e.to !== 'runtime/index.ts')
      // the browser entry's own door (the web build resolves runtime/index.js there too)
      .filter((e) => !(e.from.startsWith('extension/web/') && e.to === 'runtime/browser.ts'))
      .map((e) => `${e.from} -> ${e.to}`);
    expect(offenders).toEqual([]);
  });

  test('browser code takes from the runtime only the wire shapes and the JSON text code, none of it using Node', () => {
    const edges = edgesOf(sources('webview')).filter((e) => e.to.startsWith('runtime/'));
    const offenders = edges
      .filter((e) => !e.to.startsWith('runtime/protocol/') && !e.to.startsWith('runtime/json/'))
      .map((e) => `${e.from} -> ${e.to}`);
    expect(offenders).toEqual([]);
    // the renderer and inspector bundle these for a browser: a Node import would break them there
    const nodeUse = [...new Set(edges.filter((e) => !e.typeOnly).map((e) => e.to))].filter((file) =>
      importsOf(file).some((i) => i.specifier.startsWith('node:') && !i.typeOnly),
    );
    expect(nodeUse).toEqual([]);
  });

  test('every runtime floor imports only its own floor and the ones below', () => {
    const upward = edgesOf(core)
      .filter((e) => e.to.startsWith('runtime/') && core.includes(e.to) && floorOf(e.to) > floorOf(e.from))
      .map((e) => ({ from: path.relative('runtime', e.from), to: path.relative('runtime', e.to) }));
    const unexplained = upward.filter((e) => !KNOWN_UPWARD.some((k) => k.from === e.from && k.to === e.to));
    expect(unexplained).toEqual([]);
    const stale = KNOWN_UPWARD.filter((k) => !upward.some((e) => e.from === k.from && e.to === k.to));
    expect(stale, 'an arrow listed in KNOWN_UPWARD is gone: remove it from the list').toEqual([]);
  });

  test('no module imports itself back through others', () => {
    const next = new Map<string, string[]>();
    for (const e of edgesOf([...runtimeFiles, ...sources('extension'), ...sources('webview')]))
      next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
    const state = new Map<string, 'open' | 'done'>();
    const cycles: string[] = [];
    // iterative depth-first search: the graph is a few hundred files, a recursion would do, but a stack is as short
    for (const start of next.keys()) {
      if (state.has(start)) continue;
      const stack: { file: string; i: number }[] = [{ file: start, i: 0 }];
      state.set(start, 'open');
      while (stack.length > 0) {
        const top = stack[stack.length - 1] as { file: string; i: number };
        const targets = next.get(top.file) ?? [];
        if (top.i >= targets.length) {
          state.set(top.file, 'done');
          stack.pop();
          continue;
        }
        const target = targets[top.i++] as string;
        if (state.get(target) === 'open')
          cycles.push(
            [...stack.slice(stack.findIndex((s) => s.file === target)).map((s) => s.file), target].join(' -> '),
          );
        else if (!state.has(target)) {
          state.set(target, 'open');
          stack.push({ file: target, i: 0 });
        }
      }
    }
    expect(cycles).toEqual([]);
  });

  test('the public surface stays designed: at most 150 names', () => {
    const text = fs.readFileSync(path.join(repo, 'runtime/index.ts'), 'utf8');
    expect(text).not.toMatch(/export \*/);
    const names = [...text.matchAll(/export (?:type )?\{([^}]*)\}/g)].flatMap((m) =>
      (m[1] as string).split(',').filter((n) => n.trim() !== ''),
    );
    expect(names.length).toBeLessThanOrEqual(150);
  });
});
