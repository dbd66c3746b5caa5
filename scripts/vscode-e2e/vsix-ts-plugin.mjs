// Adds the TS server plugin package (dist/ts-plugin, built by scripts/build-ts-plugin.mjs) to a packaged VSIX as
// extension/node_modules/ptc-notebook-ts-plugin/: VS Code's TypeScript extension loads a contributed plugin only from
// <extension>/node_modules/<name>, and `vsce package --no-dependencies` never packs a top-level node_modules folder.
import { createWriteStream } from 'node:fs';
import { readdir, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import yauzl from 'yauzl';
import yazl from 'yazl';
import { REPO_ROOT } from './paths.mjs';

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
async function readEntries(file) {
  const zip = await new Promise((resolve, reject) => yauzl.open(file, { lazyEntries: true }, (e, z) => (e ? reject(e) : resolve(z))));
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
          entries.push({ name: entry.fileName, data: Buffer.concat(chunks), mode: entry.externalFileAttributes >>> 16 || undefined });
          zip.readEntry();
        });
      });
    });
    zip.readEntry();
  });
  zip.close();
  return entries;
}

// Rewrites the VSIX with the plugin package added; returns the packaged paths (relative to the extension folder).
export async function addTsPlugin(vsix, name) {
  const files = await listFiles(PLUGIN_DIR).catch(() => []);
  if (!files.some((f) => path.relative(PLUGIN_DIR, f) === 'index.js')) throw new Error(`${PLUGIN_DIR} has no index.js: run the build first`);
  const entries = await readEntries(vsix);
  const added = files.map((f) => `node_modules/${name}/${path.relative(PLUGIN_DIR, f).split(path.sep).join('/')}`);
  const zip = new yazl.ZipFile();
  for (const entry of entries) {
    let data = entry.data;
    if (entry.name === '[Content_Types].xml') {
      let xml = data.toString('utf8');
      for (const [extension, type] of Object.entries(CONTENT_TYPES)) {
        if (!xml.includes(`Extension="${extension}"`)) xml = xml.replace('</Types>', `<Default Extension="${extension}" ContentType="${type}"/></Types>`);
      }
      data = Buffer.from(xml, 'utf8');
    }
    zip.addBuffer(data, entry.name, entry.mode === undefined ? {} : { mode: entry.mode });
  }
  for (const [i, file] of files.entries()) zip.addBuffer(await readFile(file), `extension/${added[i]}`);
  zip.end();
  const partial = `${vsix}.partial`;
  await new Promise((resolve, reject) => {
    const out = createWriteStream(partial);
    zip.outputStream.once('error', reject);
    out.once('error', reject);
    out.once('finish', resolve);
    zip.outputStream.pipe(out);
  });
  await rename(partial, vsix).catch(async (error) => {
    await rm(partial, { force: true });
    throw error;
  });
  return added;
}
