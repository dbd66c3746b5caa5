import fs from 'node:fs/promises';
import path from 'node:path';
import { NOTEBOOK_FILE_EXTENSION } from '../notebook/schema.js';
import { cassetteCollisions } from '../session/cassette-collisions.js';

// Which notebooks a `ptc test` run covers: files, folders (every `.ptcnb` below) and globs (`examples/**/*.ptcnb`).
// `collisions`: cells of these notebooks (and their folders' others) whose cassettes would silently be one file.
export type Discovery = { ok: true; notebooks: string[]; collisions: string[] } | { ok: false; message: string };

// folders never searched: dependencies, VCS data, cassettes and other dot-folders
const SKIPPED_DIRS = new Set(['node_modules']);
const skipped = (name: string): boolean => name.startsWith('.') || SKIPPED_DIRS.has(name);
const GLOB_CHARS = /[*?{[]/;

export async function discoverNotebooks(options: { patterns: readonly string[]; cwd: string }): Promise<Discovery> {
  const patterns = options.patterns.length === 0 ? ['.'] : options.patterns;
  const found = new Set<string>();
  for (const pattern of patterns) {
    if (GLOB_CHARS.test(pattern)) {
      const matches = await globNotebooks(pattern, options.cwd);
      if (matches.length === 0) return { ok: false, message: `no notebook matches ${pattern}` };
      for (const file of matches) found.add(file);
      continue;
    }
    const target = path.resolve(options.cwd, pattern);
    let stat;
    try {
      stat = await fs.stat(target);
    } catch {
      return { ok: false, message: `no such file or folder: ${pattern}` };
    }
    if (stat.isDirectory())
      for (const file of await walk(target, (name) => name.endsWith(NOTEBOOK_FILE_EXTENSION))) found.add(file);
    else found.add(target);
  }
  if (found.size === 0)
    return { ok: false, message: `no ${NOTEBOOK_FILE_EXTENSION} notebooks under ${patterns.join(', ')}` };
  // one order on every machine: shards and reports agree
  const notebooks = [...found].sort(byCodeUnit);
  return { ok: true, notebooks, collisions: await cassetteCollisions(notebooks, options.cwd) };
}

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

// Files below `root` whose name passes `keep`, skipping the folders `skipped` names (unreadable folders are passed
// over).
async function walk(root: string, keep: (name: string) => boolean): Promise<string[]> {
  const out: string[] = [];
  const pending = [root];
  while (pending.length > 0) {
    const dir = pending.pop() as string;
    let entries;
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!skipped(entry.name)) pending.push(full);
      } else if (entry.isFile() && keep(entry.name)) out.push(full);
    }
  }
  return out;
}

async function globNotebooks(pattern: string, cwd: string): Promise<string[]> {
  const absolute = path.resolve(cwd, pattern).split(path.sep).join('/');
  const parts = absolute.split('/');
  const firstGlob = parts.findIndex((part) => GLOB_CHARS.test(part));
  const base = parts.slice(0, firstGlob).join('/') || '/';
  const regex = globRegex(absolute);
  // every file, since a glob may name files other than notebooks
  const files = await walk(base, () => true);
  return files.filter((file) => regex.test(file.split(path.sep).join('/')));
}

// `**` any folders, `*` and `?` within one name, `{a,b}` alternatives, `[…]` a character class.
export function globRegex(glob: string): RegExp {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (c === '*' && glob[i + 1] === '*') {
      const slash = glob[i + 2] === '/';
      out += slash ? '(?:[^/]*/)*' : '.*';
      i += slash ? 2 : 1;
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (c === '{') {
      const end = glob.indexOf('}', i);
      if (end === -1) out += '\\{';
      else {
        out += `(?:${glob
          .slice(i + 1, end)
          .split(',')
          .map((alt) => alt.replace(/[.+^$()|\\[\]]/g, '\\$&').replace(/\*/g, '[^/]*'))
          .join('|')})`;
        i = end;
      }
    } else if (c === '[') {
      const end = glob.indexOf(']', i);
      if (end === -1) out += '\\[';
      else {
        out += `[${glob.slice(i + 1, end).replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else out += c.replace(/[.+^$()|\\\]}]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
}
