// Adds the TS server plugin package (dist/ts-plugin, built by scripts/build-ts-plugin.mjs) to a packaged VSIX as
// extension/node_modules/ptc-notebook-ts-plugin/: VS Code's TypeScript extension loads a contributed plugin only from
// <extension>/node_modules/<name>, and `vsce package --no-dependencies` never packs a top-level node_modules folder.
import { createWriteStream } from 'node:fs';
import { readdir, readFile, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { REPO_ROOT } from './paths.mjs';

// vsce's own zip libraries, resolved from vsce (which depends on them) rather than hoped to be hoisted
const fromVsce = createRequire(
  createRequire(path.join(REPO_ROOT, 'package.json')).resolve('@vscode/vsce/package.json'),
);
const yauzl = fromVsce('yauzl');
const yazl = fromVsce('yazl');

const PLUGIN_DIR = path.join(REPO_ROOT, 'dist', 'ts-plugin');
// what vsce writes for these extensions (mime lookup), for [Content_Types].xml
const CONTENT_TYPES = { '.js': 'application/javascript', '.json': 'application/json', '.ts': 'video/mp2t' };

async function listFiles(dir) {
  const found = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await listFiles(full)));
    else if (entry.isFile()) found.push(full);
  }
  return found;
}

// Every entry of a zip as { name, data, mode }.
export async function readEntries(file) {
  const zip = await new Promise((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true }, (e, z) => (e ? reject(e) : resolve(z))),
  );
  const entries = [];
  await new Promise((resolve, reject) => {
    zip.on('error', reject);
    zip.on('end', resolve);
    zip.on('entry', (entry) => {
      zip.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        const chunks = [];
        stream.on('data', (c) => chunks.push(c));
        stream.on('error', reject);
        stream.on('end', () => {
          entries.push({
            name: entry.fileName,
            data: Buffer.concat(chunks),
            mode: entry.externalFileAttributes >>> 16 || undefined,
          });
          zip.readEntry();
        });
      });
    });
    zip.readEntry();
  });
  zip.close();
  return entries;
}

// Rewrites the VSIX with the plugin package (from `from`) added; returns the packaged paths (relative to the
// extension folder).
export async function addTsPlugin(vsix, name, from = PLUGIN_DIR) {
  const files = await listFiles(from).catch(() => []);
  if (!files.some((f) => path.relative(from, f) === 'index.js'))
    throw new Error(`${from} has no index.js: run the build first`);
  const added = files.map((f) => `node_modules/${name}/${path.relative(from, f).split(path.sep).join('/')}`);
  const entries = (await readEntries(vsix)).map((entry) => {
    if (entry.name !== '[Content_Types].xml') return entry;
    let xml = entry.data.toString('utf8');
    for (const [extension, type] of Object.entries(CONTENT_TYPES)) {
      if (!xml.includes(`Extension="${extension}"`))
        xml = xml.replace('</Types>', `<Default Extension="${extension}" ContentType="${type}"/></Types>`);
    }
    return { ...entry, data: Buffer.from(xml, 'utf8') };
  });
  for (const [i, file] of files.entries())
    entries.push({ name: `extension/${added[i]}`, data: await readFile(file), mode: undefined });
  const partial = `${vsix}.partial`;
  try {
    await writeEntries(partial, entries);
    await rename(partial, vsix);
  } finally {
    await rm(partial, { force: true });
  }
  return added;
}

// Writes a zip of { name, data, mode } entries.
export async function writeEntries(file, entries) {
  const zip = new yazl.ZipFile();
  for (const entry of entries)
    zip.addBuffer(entry.data, entry.name, entry.mode === undefined ? {} : { mode: entry.mode });
  zip.end();
  await new Promise((resolve, reject) => {
    const out = createWriteStream(file);
    zip.outputStream.once('error', reject);
    out.once('error', reject);
    out.once('finish', resolve);
    zip.outputStream.pipe(out);
  });
}
